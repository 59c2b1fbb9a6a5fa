"""The one root error of the rules, and its few kinds.

Every message names the people involved and the reason, in table words:
``"cat cannot double: the box owns cat's cube"``. It is said as a value
(:class:`chouette.words.Said`), rendered in the reader's language by the door that shows it;
``str(error)`` is the English.
"""

from __future__ import annotations

from typing import Any


class ChouetteError(Exception):
    """A rule or data error: the command is refused and nothing changes. Its message is a
    :class:`chouette.words.Said` (or plain text: a name, a file's own words)."""

    def __init__(self, message: object = "", /) -> None:
        super().__init__(message)

    @property
    def said(self) -> Any:
        """What the error says (a :data:`chouette.words.Sayable`), rendered in the reader's
        words where it is shown."""
        return self.args[0] if self.args else ""


class RuleError(ChouetteError):
    """An event the rules do not allow in the game as it stands."""


class LineError(ChouetteError):
    """A change to the line (join, leave, sit out) that cannot be made."""


class AutoDoubleIgnored(RuleError):
    """A tied opening roll past the automatic-double limit: the cubes stay as they are."""


class PlayerError(ChouetteError):
    """A typed name that means no player of the session, or could mean two."""


class RecordError(ChouetteError):
    """A chouette game record that cannot be read or does not fit the session."""


class MoneyError(ChouetteError):
    """An amount of money that is not an exact number of cents."""


class EngineFileError(ChouetteError):
    """An engine file (.mat, .sgf, neutral record) that cannot be booked."""


class LimitError(ChouetteError):
    """A number past what the ledger keeps (:data:`chouette.limits.LIMIT`)."""


class PositionError(ChouetteError):
    """A position typed for a cube decision (a Position ID, an XGID) that is none, or no
    board a game can have."""
