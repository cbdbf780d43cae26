"""The score pad for games played with real cards: the model (:mod:`.model`, standard
library only, scored by the engine), the terminal pad (:mod:`.tui`) and the browser pad
(:mod:`.web`, a FastAPI router)."""
