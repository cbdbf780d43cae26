"""Learning Five Hundred: puzzles made by the solver (:mod:`.puzzles`), a review of a
finished game (:mod:`.review`) and the tutorial's lessons (:mod:`.lessons`), with their
terminal commands ``fivehundred puzzle``, ``fivehundred analyse --review`` and
``fivehundred learn``."""
