"""uvicorn's HTTP/1.1 protocol (h11) with a deadline for each request's line and headers.

uvicorn has no such deadline: its keep-alive timer is reset by every byte received, so a client
trickling a request's headers a byte at a time holds a connection for as long as it likes. The
deadline starts when a connection opens and again after each response; once a request's headers
are in, it is off (its body has its own deadline, Limits.body_seconds, in cli/server/fields.py). A
connection past it is closed.

A request answered before its body was read (a 403, a 413 for a body over the limit) ends its
connection by a lingering close, as nginx's: the answer is sent and the writing side shut, and what
more comes is read and dropped until the client closes, for LINGER_SECONDS at most. Closed at once,
a socket with unread bytes is reset, and the reset can reach the client before the answer it has
not read yet: a client posting a huge body saw "connection reset" instead of the 413. The bound
keeps a client trickling a body that nothing reads from holding the connection."""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import LINGER_SECONDS


def with_header_deadline(seconds: float) -> type[H11Protocol]:
    """The h11 protocol class closing connections whose request headers take over `seconds`."""

    class HeaderDeadlineProtocol(H11Protocol):
        deadline: asyncio.TimerHandle | None = None
        lingering = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if not self.lingering:
                super().data_received(data)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # the request line and headers are in
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.conn.their_state is h11.IDLE:
                self._arm()  # the next request on this connection gets its own deadline
            elif self.conn.their_state is h11.SEND_BODY:  # answered before its body was read: nothing
                self._linger()  # after the body is served on this connection

        def _linger(self) -> None:
            self.lingering = True
            self._unset_keepalive_if_required()
            if self.transport.can_write_eof():
                self.transport.write_eof()  # sent once the answer is; the client's close ends it
            self._disarm()
            self.deadline = self.loop.call_later(LINGER_SECONDS, self.transport.close)

        def _arm(self) -> None:
            self._disarm()
            self.deadline = self.loop.call_later(seconds, self._expire)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _expire(self) -> None:
            self.deadline = None
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self.transport.close()

    return HeaderDeadlineProtocol
