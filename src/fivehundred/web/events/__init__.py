"""Events: tournaments (Swiss for fixed partnerships, round robin, knockout) and seasonal
leagues.

:mod:`.pairing` and :mod:`.league` are pure: they import nothing from the web or the
database and are tested on their own. The service (its tables, its rounds started once
across servers, its pages) is built on them.
"""
