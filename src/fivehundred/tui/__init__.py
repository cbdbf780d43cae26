"""The terminal game: ``fivehundred play`` (Textual, or plain line mode) and
``fivehundred show`` (a record replayed step by step).

The game logic for one person against three computer players lives in
:mod:`fivehundred.tui.session`, shared by the full-screen app (:mod:`fivehundred.tui.app`)
and the line mode (:mod:`fivehundred.tui.plain`); Textual is imported only by the app.
"""
