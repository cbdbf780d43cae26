"""Analysis of played hands with the double-dummy solver: a hand's analysis (the value of
each call and card, ``fivehundred analyse``) and a seat's review (its costliest choices and
its accuracy by phase). Above the solver and the computer players; used by learning, the
terminal and the web, never the other way round."""
