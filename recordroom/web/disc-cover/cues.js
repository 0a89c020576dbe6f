// Party feel: a short generated sound and a buzz at the reveal and at a tie, and a phone screen
// that stays awake during the game. Everything degrades quietly where a browser lacks an API.

let context = null;

/** The page's audio context, made (or resumed) on the first tap: browsers allow sound after one. */
function audioContext() {
  const Maker = window.AudioContext || window.webkitAudioContext;
  if (!Maker) return null;
  if (!context) context = new Maker();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => audioContext(), { capture: true, passive: true });
}

// Notes of each cue, in Hz, with their start and length in seconds: a rising chord for a reveal,
// two questioning notes for a tie.
const CUES = {
  reveal: [
    [523.25, 0, 0.16],
    [659.25, 0.09, 0.16],
    [783.99, 0.18, 0.32],
  ],
  tie: [
    [587.33, 0, 0.18],
    [554.37, 0.2, 0.3],
  ],
};
const BUZZ = { reveal: [60, 40, 120], tie: [90, 60, 90] };

/** Plays a cue ("reveal" or "tie") and buzzes the phone; returns whether a sound was made. */
export function cue(kind, { volume = 0.18, sound = true, buzz = true } = {}) {
  if (buzz && typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate(BUZZ[kind]);
    } catch {
      /* no vibration here */
    }
  }
  if (!sound) return false;
  const ctx = audioContext();
  if (ctx?.state !== "running") return false;
  const now = ctx.currentTime + 0.02;
  for (const [frequency, start, length] of CUES[kind]) {
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = "triangle";
    tone.frequency.value = frequency;
    // A soft attack and a quick fade: a chime, not a click.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(volume, now + start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    tone.connect(gain).connect(ctx.destination);
    tone.start(now + start);
    tone.stop(now + start + length + 0.05);
  }
  return true;
}

/** Keeps the screen on while `wanted()` holds (Wake Lock API); asks again when the page returns. */
export function keepAwake(wanted) {
  let lock = null;
  let asking = false;
  async function check() {
    const want = wanted() && document.visibilityState === "visible";
    if (want && !lock && !asking && navigator.wakeLock?.request) {
      asking = true;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener?.("release", () => {
          lock = null;
        });
      } catch {
        lock = null; /* refused (battery saver, no permission): the screen may sleep */
      }
      asking = false;
    } else if (!want && lock) {
      const held = lock;
      lock = null;
      held.release().catch(() => {});
    }
  }
  document.addEventListener("visibilitychange", check);
  return check;
}
