"""`attn serve`'s settings and their defaults: what one request may ask for, and how requests are
batched. Free of the server's packages and of asyncio, so that the command's options take their
defaults from here without slowing every other command's start."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one request may ask for. The body limit follows from the characters: UTF-8 takes at
    most 4 bytes a character, JSON escaping at most 6 (\\uXXXX), plus room for the other fields; a
    file's from its own limit in megabytes."""

    max_chars: int = 20_000
    max_inputs: int = 128
    max_file_mb: int = 20  # a /translate_file upload, at most: an office file's pictures weigh, not its text
    timeout: float = 60.0
    api_keys: frozenset[str] | None = None
    body_seconds: float = 30.0  # a request body not received whole by then is a 408
    header_seconds: float = (
        10.0  # a connection whose request line and headers are not in by then is closed (cli/server/protocol.py)
    )

    @property
    def max_piece_beams(self) -> int:
        """A request's work budget, its source pieces times its beam: 5 per allowed character (text
        runs about one piece a character or less), so 10,000 emoji (40,000 byte-level pieces) at
        beam 5 is over the default's."""
        return 5 * self.max_chars

    @property
    def max_body_bytes(self) -> int:
        return 6 * self.max_chars + 64 * 1024

    @property
    def max_file_bytes(self) -> int:
        """A /translate_file request's body, at most: the file and the other fields (its text is
        held to max_chars once read)."""
        return self.max_file_mb * 1_000_000 + 64 * 1024


# What one request's search may ask for: tighter than the command line's (runtime/search.py
# SEARCH_LIMITS), since a server's model is shared.
SERVER_SEARCH_LIMITS = {"beam": 16, "n_best": 16, "min_length": 256, "max_length_ratio": 3.0, "max_length_offset": 256}

# Dynamic batching (cli/server/batcher.py): texts per decode batch, how long a batch waits for more
# requests when they come concurrently, texts waiting per model.
MAX_BATCH, MAX_WAIT_SECONDS, MAX_QUEUED = 64, 0.002, 1024
# Connections (uvicorn): served at once, at most; an idle keep-alive connection is closed after this.
MAX_CONNECTIONS, KEEP_ALIVE_SECONDS = 200, 5
# A request answered before its body was read: the rest of the body is read and dropped for this
# long at most, so that the client reads the answer rather than a reset (cli/server/protocol.py).
LINGER_SECONDS = 3.0
