"""How long the music takes to get ready, and that the setup never waits for it.

Run: ``.venv/bin/python bench/music_setup.py --music DIR [--skip-demo]``.

- *cue points*: for each track of the folder, its length, its cue point (where its first sustained
  loud passage starts) and the seconds it took to find (one decode of the track);
- *first run*: a jukebox on an empty cache folder makes the demo playlist in the background while
  the setup asks for the catalogue and checks the folder's music every 0.2 s: the time the demo
  took, and the slowest and median answers meanwhile (they must not wait for the demo).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

from recordroom.media.music.cue import cue_point
from recordroom.media.music.library import scan
from recordroom.server.music import Jukebox
from recordroom.server.protocol import MusicSettings


def cue_points(folder: Path) -> None:
    library = scan([folder])
    print(f"cue points of {len(library)} tracks")
    spent = []
    for track in sorted(library, key=lambda t: t.title):
        started = time.perf_counter()
        cue = cue_point(track.path)
        spent.append(time.perf_counter() - started)
        print(
            f"  {track.title[:32]:32} {track.duration:6.1f} s  cue {cue:5.1f} s  {spent[-1]:.2f} s"
        )
    if spent:
        print(f"  per track: median {statistics.median(spent):.2f} s, max {max(spent):.2f} s")


def first_run(folder: Path) -> None:
    with tempfile.TemporaryDirectory() as cache:
        jukebox = Jukebox(Path(cache), (folder,))
        making = threading.Thread(target=jukebox.warm)
        started = time.perf_counter()
        making.start()
        answers: list[float] = []
        settings = MusicSettings(source="library")
        while making.is_alive():
            asked = time.perf_counter()
            jukebox.catalogue()
            jukebox.check(settings)
            answers.append(time.perf_counter() - asked)
            time.sleep(0.2)
        made = time.perf_counter() - started
        print(f"first run: the demo playlist took {made:.1f} s to make")
        print(
            f"  {len(answers)} catalogue + check answers meanwhile: median "
            f"{1000 * statistics.median(answers):.1f} ms, slowest {1000 * max(answers):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--music", type=Path, required=True, help="a music folder")
    parser.add_argument("--skip-demo", action="store_true", help="only the cue points")
    args = parser.parse_args()
    cue_points(args.music)
    if not args.skip_demo:
        first_run(args.music)


if __name__ == "__main__":
    main()
