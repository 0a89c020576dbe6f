"""The server's HTTP routes, one router per concern.

``rooms`` (rooms: create, look up, start, play again, the log and the replay, the QR code),
``seats`` (joining, bots, kicking), ``music`` (the jukebox and a room's track), ``media`` (sleeves,
the booklet, the mosaic), ``games`` (the games served and their documents) and ``pages`` (the
browser pages). The room socket lives in :mod:`recordroom.server.sockets`; what they share, in
:mod:`recordroom.server.deps`.
"""
