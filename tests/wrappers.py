"""A backend that delegates to another one, for tests that count, inspect or break solves."""

from __future__ import annotations

from typing import Any


class DelegatingBackend:
    """Implements the backend protocol by passing every call to ``inner``; subclasses override ``solve``."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.name = inner.name
        self.capabilities = inner.capabilities

    def available(self):
        return self.inner.available()

    def version(self):
        return self.inner.version()

    def route(self) -> str:
        return f"test wrapper around {self.inner.route()}"

    def release(self, model: Any) -> None:
        self.inner.release(model)

    def solve(self, model: Any, **kwargs: Any):
        return self.inner.solve(model, **kwargs)
