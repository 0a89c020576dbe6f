"""What a track sounds like, in a few numbers a listening bot can match against sleeves.

The audio is decoded with soundfile (libsndfile: OGG, FLAC, WAV, MP3) and analysed with numpy on a
mono mixdown of up to 45 seconds from the first third of the track:

- ``tempo``: beats per minute, from the autocorrelation of the onset envelope (spectral flux);
- ``onset_rate``: note or drum onsets per second (peaks of that envelope);
- ``loudness``: RMS level in dBFS;
- ``brightness``: spectral centroid in Hz (dull pads are low, cymbals and saws high);
- ``minor``: minor leaning from -1 (clearly major) to 1 (clearly minor), by correlating the
  average chroma with the Krumhansl-Kessler key profiles of all 24 keys;
- ``energy``: 0..1, a blend of loudness, onset rate and tempo, for convenience.

Every feature is a plain float, so a :class:`TrackFeatures` goes into JSON as it is.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import soundfile

Float = np.typing.NDArray[np.float64]

ANALYSIS_RATE = 22050
FRAME = 2048
HOP = 512
MAX_SECONDS = 45.0

# Krumhansl-Kessler probe-tone profiles, tonic first.
_MAJOR_PROFILE = np.array([6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88])
_MINOR_PROFILE = np.array([6.33, 2.68, 3.52, 5.38, 2.60, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17])


class AudioError(ValueError):
    """The file could not be decoded as audio."""


@dataclass(frozen=True)
class TrackFeatures:
    """The numbers a listening bot hears."""

    tempo: float
    onset_rate: float
    loudness: float
    brightness: float
    minor: float
    energy: float

    def to_json(self) -> dict[str, float]:
        """The features as a JSON object, rounded for reading."""
        return {k: round(v, 3) for k, v in asdict(self).items()}


def load_mono(path: Path, max_seconds: float = MAX_SECONDS) -> tuple[Float, int]:
    """Samples of a window from the first third of the file, mixed to mono, and their rate."""
    try:
        info = soundfile.info(str(path))
        start = int(info.frames // 3) if info.frames > 3 * max_seconds * info.samplerate else 0
        frames = int(max_seconds * info.samplerate)
        data, rate = soundfile.read(str(path), start=start, frames=frames, always_2d=True)
    except (RuntimeError, soundfile.LibsndfileError, OSError, ValueError) as error:
        raise AudioError(f"cannot decode {path.name}: {error}") from error
    mono: Float = np.asarray(data, dtype=np.float64).mean(axis=1)
    if len(mono) < rate:  # under a second tells nothing
        raise AudioError(f"{path.name} is too short to analyse")
    return mono, int(rate)


def _resample(samples: Float, rate: int, target: int) -> Float:
    if rate == target:
        return samples
    duration = len(samples) / rate
    points = int(duration * target)
    out: Float = np.interp(np.arange(points) / target, np.arange(len(samples)) / rate, samples)
    return out


def _spectrogram(samples: Float) -> Float:
    count = 1 + (len(samples) - FRAME) // HOP
    index = np.arange(FRAME)[None, :] + HOP * np.arange(count)[:, None]
    frames = samples[index] * np.hanning(FRAME)[None, :]
    magnitude: Float = np.abs(np.fft.rfft(frames, axis=1))
    return magnitude


def _tempo(envelope: Float, frame_rate: float) -> float:
    """The beat, in BPM folded into one octave (75-150): the autocorrelation's strongest lag.

    A tempo and its half or double are the same pulse to a listener tapping along; folding into
    one octave turns that ambiguity into a consistent choice across tracks.
    """
    centred = envelope - envelope.mean()
    if not centred.any():
        return 0.0
    spectrum = np.fft.rfft(centred, n=2 * len(centred))
    autocorr = np.fft.irfft(np.abs(spectrum) ** 2)[: len(centred)]
    lags = np.arange(1, len(autocorr))
    bpm = 60 * frame_rate / lags
    window = (bpm >= 75) & (bpm < 150)
    if not window.any():
        return 0.0
    best = lags[window][int(np.argmax(autocorr[1:][window]))]
    # Refine to a fraction of a frame with a parabola through the peak and its neighbours.
    left, mid, right = (
        autocorr[best - 1],
        autocorr[best],
        autocorr[min(best + 1, len(autocorr) - 1)],
    )
    denominator = left - 2 * mid + right
    shift = 0.5 * (left - right) / denominator if denominator < 0 else 0.0
    return float(60 * frame_rate / (best + shift))


def _minor_leaning(magnitude: Float, freqs: Float) -> float:
    # Squared magnitudes of the range where chords and bass lines live: the spectral peaks of the
    # notes count, the smear between them and the upper harmonics much less.
    usable = (freqs > 60) & (freqs < 1000)
    pitch = np.round(12 * np.log2(freqs[usable] / 440.0)).astype(int) % 12
    energy = (magnitude[:, usable] ** 2).sum(axis=0)
    chroma = np.bincount(pitch, weights=energy, minlength=12)
    if chroma.sum() <= 0:
        return 0.0
    chroma = (chroma - chroma.mean()) / (chroma.std() or 1.0)

    def best(profile: Float) -> float:
        z = (profile - profile.mean()) / profile.std()
        return max(float(np.dot(chroma, np.roll(z, shift)) / 12) for shift in range(12))

    return float(np.clip((best(_MINOR_PROFILE) - best(_MAJOR_PROFILE)) * 3, -1, 1))


def analyse_samples(samples: Float, rate: int) -> TrackFeatures:
    """Features of mono samples."""
    mono = _resample(samples, rate, ANALYSIS_RATE)
    if len(mono) < FRAME * 4:
        raise AudioError("too short to analyse")
    magnitude = _spectrogram(mono)
    freqs: Float = np.fft.rfftfreq(FRAME, 1 / ANALYSIS_RATE).astype(np.float64)
    frame_rate = ANALYSIS_RATE / HOP
    flux = np.maximum(np.diff(np.log1p(magnitude), axis=0), 0).sum(axis=1)
    envelope = flux / (flux.max() or 1.0)
    threshold = np.convolve(envelope, np.ones(16) / 16, mode="same") + 0.1
    peaks = (
        (envelope[1:-1] > envelope[:-2])
        & (envelope[1:-1] >= envelope[2:])
        & (envelope[1:-1] > threshold[1:-1])
    )
    onset_rate = float(peaks.sum() / (len(mono) / ANALYSIS_RATE))
    rms = float(np.sqrt(np.mean(mono**2)))
    loudness = 20 * np.log10(max(rms, 1e-6))
    power = magnitude.sum(axis=0)
    brightness = float((power * freqs).sum() / (power.sum() or 1.0))
    tempo = _tempo(envelope, frame_rate)
    minor = _minor_leaning(magnitude, freqs)
    energy = float(
        np.clip(
            0.45 * np.clip((loudness + 30) / 24, 0, 1)
            + 0.35 * np.clip(onset_rate / 6, 0, 1)
            + 0.2 * np.clip((tempo - 60) / 120, 0, 1),
            0,
            1,
        )
    )
    return TrackFeatures(tempo, onset_rate, float(loudness), brightness, minor, energy)


def analyse(path: Path) -> TrackFeatures:
    """Features of an audio file; :class:`AudioError` if it cannot be decoded."""
    samples, rate = load_mono(path)
    return analyse_samples(samples, rate)
