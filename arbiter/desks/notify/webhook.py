"""POST one digest to a webhook with the standard library (no new dependency).

A 2xx answer is success; anything else — a redirect (not followed: a POST redirected to a
GET would lose the notice and still look fine), a 4xx or 5xx, a refused connection, a
timeout — is a ``DeliveryFailed`` naming the host and the reason, never the URL (it is a
secret).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

TIMEOUT = 15.0
"""Seconds for one POST (connect and answer)."""
MAX_ANSWER = 64 * 1024


class DeliveryFailed(Exception):
    """One notice could not be delivered; the message is one line."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the 3xx is raised as an HTTPError


def post(url: str, body: bytes, timeout: float = TIMEOUT) -> int:
    """POST ``body`` (JSON) to ``url``; return the HTTP status or raise ``DeliveryFailed``."""
    from arbiter import __version__

    host = urlsplit(url).hostname
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": f"arbiter/{__version__} (turn notices)",
        },
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=timeout) as answer:
            answer.read(MAX_ANSWER)
            status = int(answer.status)
    except urllib.error.HTTPError as exc:
        raise DeliveryFailed(f"{host} answered HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise DeliveryFailed(f"cannot reach {host} ({exc.reason})") from None
    except (OSError, ValueError) as exc:  # a timeout while reading, a bad URL
        raise DeliveryFailed(f"cannot post to {host} ({type(exc).__name__}: {exc})") from None
    if not 200 <= status < 300:
        raise DeliveryFailed(f"{host} answered HTTP {status}")
    return status
