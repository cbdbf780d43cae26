"""Prometheus metrics of the game server (``GET /metrics``), each application with its own
registry. docs/deploy.md lists them."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

#: Seconds: from a few milliseconds (a request, a heuristic decision) to a long search.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DECISION_BUCKETS = (0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge(
            "fivehundred_tables_live",
            "Unfinished tables this server plays (owns); 0 while it has lost its database",
            registry=r,
        )
        self.followed = Gauge(
            "fivehundred_tables_followed",
            "Unfinished tables of other servers shown here to this server's clients",
            registry=r,
        )
        self.connections = Gauge(
            "fivehundred_connections", "WebSocket connections open", registry=r
        )
        self.actions = Counter(
            "fivehundred_actions",
            "Actions made at the tables, by who made them (person, computer, stand_in, timer)",
            ["by"],
            registry=r,
        )
        self.decisions = Histogram(
            "fivehundred_decision_seconds",
            "Time of one computer decision, by player",
            ["player"],
            registry=r,
            buckets=DECISION_BUCKETS,
        )
        self.decision_ceilings = Counter(
            "fivehundred_decision_ceilings",
            "Computer decisions stopped at the wall-clock ceiling",
            ["player"],
            registry=r,
        )
        self.requests = Histogram(
            "fivehundred_http_request_seconds",
            "Time to answer an HTTP request, by route",
            ["method", "route"],
            registry=r,
            buckets=LATENCY_BUCKETS,
        )
        self.messages = Histogram(
            "fivehundred_ws_message_seconds",
            "Time to handle one WebSocket message (an action: until every view is queued)",
            registry=r,
            buckets=LATENCY_BUCKETS,
        )
        self.refusals = Counter(
            "fivehundred_refusals",
            "Requests and messages refused, by reason",
            ["reason"],
            registry=r,
        )
        self.expired = Counter(
            "fivehundred_tables_expired",
            "Tables closed by the expiry, by why (unjoined, abandoned)",
            ["why"],
            registry=r,
        )

        self.server_errors = Counter(
            "fivehundred_http_5xx",
            "HTTP answers with a 5xx status (an error of the server or of its database)",
            ["route"],
            registry=r,
        )
        #: the hub's events (Hub.count) by name, each its own counter
        self.events = {
            name: Counter(metric, text, registry=r)
            for name, metric, text in (
                ("failed_saves", "fivehundred_failed_saves", "Actions the database could not save"),
                (
                    "database_errors",
                    "fivehundred_database_errors",
                    "Database calls that failed (queries, saves, the cluster's connections)",
                ),
                (
                    "locks_lost",
                    "fivehundred_locks_lost",
                    "Tables this server stopped playing because its lock connection broke",
                ),
                (
                    "adopted",
                    "fivehundred_tables_adopted",
                    "Tables this server took over (an orphaned or handed-over table)",
                ),
                (
                    "handed_over",
                    "fivehundred_tables_handed_over",
                    "Tables this server gave to another between hands (a fair share)",
                ),
                (
                    "passed_on",
                    "fivehundred_actions_passed_on",
                    "Clients' actions passed to the table's server through the inbox",
                ),
                (
                    "inbox_refused",
                    "fivehundred_actions_taken_back",
                    "Actions passed on that no table's server took in time (client told)",
                ),
            )
        }

    def track(
        self,
        tables: Callable[[], float],
        connections: Callable[[], float],
        followed: Callable[[], float] | None = None,
    ) -> None:
        """Read the gauges from the hub when scraped."""
        self.tables.set_function(tables)
        self.connections.set_function(connections)
        if followed is not None:
            self.followed.set_function(followed)

    def count(self, event: str, n: int = 1) -> None:
        """One of the hub's events (:meth:`fivehundred.web.live.Hub.count`)."""
        counter = self.events.get(event)
        if counter is not None:
            counter.inc(n)

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason).inc()
