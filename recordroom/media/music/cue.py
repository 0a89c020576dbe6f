"""Where a song's music is: the cue point a turn starts playing from.

Many recorded songs open with a quiet intro (a hum, a count-in, a slow fade in) that tells a
listener little about the song. :func:`cue_point` finds the first *sustained loud passage* from the
track's RMS envelope, so the table can start there instead of at 0:00:

1. the audio is decoded block by block (never the whole file in memory) into the mean square of
   each 0.1 s block of a mono mixdown;
2. the envelope is smoothed over one second and read in dB; the track's *loud level* is the 90th
   percentile of that envelope, and a block is loud when it is within :data:`LOUD_DB` of it;
3. the cue is the first loud block from which at least :data:`SUSTAINED_SHARE` of the next
   :data:`SUSTAIN` seconds are loud: a single drum hit or a short swell in the intro is passed by;
4. a track that is loud within its first :data:`MIN_INTRO` seconds, or never loud at all (silence),
   starts at 0.

The result is seconds from the start of the file. It costs one decode of the track, so the server
computes it once per track, in the background, and keeps it (see ``recordroom.server.music``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile

from recordroom.media.music.features import AudioError

Float = np.typing.NDArray[np.float64]

BLOCK = 0.1
"""Seconds per envelope block."""
SMOOTH = 1.0
"""Seconds the envelope is averaged over before it is read."""
LOUD_DB = 6.0
"""How far below the track's loud level a block still counts as loud."""
SUSTAIN = 6.0
"""Seconds a passage must keep loud to count as the music proper."""
SUSTAINED_SHARE = 0.8
"""Share of the sustain window that must be loud (short breaths in a passage are allowed)."""
MIN_INTRO = 3.0
"""A cue earlier than this is no intro worth skipping: the song starts at 0."""
MAX_SECONDS = 900.0
"""Only the first 15 minutes are read (a long mix is not searched to its end)."""


def envelope(path: Path, max_seconds: float = MAX_SECONDS) -> tuple[Float, float]:
    """Mean square of each :data:`BLOCK` of the file's mono mixdown, and the block length (s)."""
    try:
        info = soundfile.info(str(path))
        block = max(1, int(info.samplerate * BLOCK))
        limit = int(max_seconds * info.samplerate)
        powers: list[float] = []
        for data in soundfile.blocks(
            str(path), blocksize=block, frames=limit, dtype="float32", always_2d=True
        ):
            mono = data.mean(axis=1, dtype=np.float64)
            powers.append(float(np.mean(mono * mono)))
    except (RuntimeError, soundfile.LibsndfileError, OSError, ValueError) as error:
        raise AudioError(f"cannot decode {path.name}: {error}") from error
    return np.asarray(powers, dtype=np.float64), block / info.samplerate


def cue_from_envelope(powers: Float, block_seconds: float) -> float:
    """The cue point (seconds) of an envelope of block mean squares; see the module docstring."""
    if len(powers) == 0 or not np.any(powers > 1e-10):
        return 0.0
    width = max(1, round(SMOOTH / block_seconds))
    smooth = np.convolve(powers, np.ones(width) / width, mode="same")
    level = 10 * np.log10(smooth + 1e-12)
    audible = level[level > -80]
    if len(audible) == 0:
        return 0.0
    loud = level >= float(np.percentile(audible, 90)) - LOUD_DB
    span = max(1, round(SUSTAIN / block_seconds))
    # Loud blocks in each window [i, i + span), from a running sum.
    counts = np.convolve(loud.astype(np.float64), np.ones(span), mode="full")[span - 1 :]
    window = np.minimum(span, len(loud) - np.arange(len(loud)))
    sustained = loud & (counts >= SUSTAINED_SHARE * window) & (window >= min(span, len(loud)) / 2)
    found = np.flatnonzero(sustained)
    if len(found) == 0:
        return 0.0
    # The smoothing spreads the passage's start half a window early; take the block where the
    # raw power reaches the loud level (or the smoothed start if the raw one never does).
    first = int(found[0])
    raw = 10 * np.log10(powers + 1e-12)
    threshold = float(np.percentile(audible, 90)) - LOUD_DB
    ahead = np.flatnonzero(raw[first : first + width + 1] >= threshold)
    if len(ahead):
        first += int(ahead[0])
    seconds = first * block_seconds
    return 0.0 if seconds < MIN_INTRO else round(seconds, 1)


def cue_point(path: Path) -> float:
    """Seconds into the file where its first sustained loud passage starts (0 for none).

    :class:`AudioError` when the file cannot be decoded.
    """
    powers, block_seconds = envelope(path)
    return cue_from_envelope(powers, block_seconds)
