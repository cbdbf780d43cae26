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
        self.tables = Gauge("fivehundred_tables_live", "Unfinished tables being played", registry=r)
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

    def track(self, tables: Callable[[], float], connections: Callable[[], float]) -> None:
        """Read the gauges from the hub when scraped."""
        self.tables.set_function(tables)
        self.connections.set_function(connections)

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason).inc()
