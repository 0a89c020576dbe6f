"""Media for Record Room: the generated sleeve art and what is made from it.

- :mod:`recordroom.media.sleeve_art` draws each of the 100 built-in sleeves as a square SVG, by
  code, deterministically (same sleeve, same bytes), in ten art families.
- :mod:`recordroom.media.raster` turns SVG into PNG (the ``resvg`` renderer: no system library).
- :mod:`recordroom.media.contact_sheet`, :mod:`recordroom.media.booklet`,
  :mod:`recordroom.media.export` make the contact sheet, the Artists Booklet (HTML and PDF) and the
  print-and-play files.
- :mod:`recordroom.media.packs` loads a custom sleeve pack (a folder of images and a manifest).
- :mod:`recordroom.media.mosaic` renders the 3 x 3 mosaic of a finished Disc Cover game.

Media may import the engine and the sleeve catalogue; nothing in the games or the engine imports
media.
"""
