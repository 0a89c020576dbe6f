"""Music for the table: the library of playable tracks, themes and the built-in demo playlist.

- :mod:`.library`: scanning music folders (tags, durations, M3U playlists) into tracks known by id;
- :mod:`.themes`: decade and genre themes from the tags;
- :mod:`.demo`: the demo playlist the project synthesises and caches on first run.
"""

from recordroom.media.music.library import Library, Playlist, ScanProblem, Track, scan

__all__ = ["Library", "Playlist", "ScanProblem", "Track", "scan"]
