"""What the host says about a merge request besides open / merged / closed: each reviewer's latest review and each CI
check of the newest commit heard of, as the hosts' webhooks report them (portal.ports.tracking stores them in
MergeRequest.host_state), and the two read together for the page and the API. Pure functions over the stored
dict: no query, no host.

Rules, as the hosts show them: a reviewer's newer review replaces their older one, except that a comment leaves an
approval or a change request standing; a dismissed (withdrawn) review is forgotten; changes requested by anyone
outweigh approvals. A host that reports where every reviewer stands now (GitLab's reviewer states) is read with
`apply_standing`. A check of a newer commit replaces the checks of the older one; a report older than the one
kept (hosts do not promise order) is ignored."""

from __future__ import annotations

from datetime import UTC, datetime

REVIEW_ORDER = ("changes_requested", "approved", "commented")  # the first any reviewer is in, is the request's
CHECK_ORDER = ("failing", "pending", "passing")


def when(text: str | None) -> datetime | None:
    """A host's timestamp: ISO 8601 (GitHub, Gitea) or GitLab's "2016-08-12 15:26:29 UTC"; None when unreadable."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = datetime.strptime(text, "%Y-%m-%d %H:%M:%S %Z")
        except ValueError:
            return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _stamp(text: str) -> str:
    moment = when(text)
    return moment.isoformat() if moment else ""


def _older(incoming: str, kept: str | None) -> bool:
    """Whether a report made at `incoming` predates the one kept (unknown times never count as older)."""
    new, old = when(incoming), when(kept)
    return bool(new and old and new < old)


def apply_review(state: dict, reviewer: str, review: str, at: str) -> bool:
    """Record `reviewer`'s review (approved, changes_requested, commented or dismissed) in `state`; whether it
    changed anything."""
    reviews = dict(state.get("reviews") or {})
    kept = reviews.get(reviewer) or {}
    if _older(at, kept.get("at")):
        return False
    if review == "dismissed":
        if reviewer not in reviews:
            return False
        del reviews[reviewer]
    elif review == "commented" and kept.get("state") in ("approved", "changes_requested"):
        return False  # a comment does not withdraw an approval or a change request
    else:
        reviews[reviewer] = {"state": review, "at": _stamp(at)}
    state["reviews"] = reviews
    return True


def apply_standing(state: dict, reviewer: str, standing: str, at: str) -> bool:
    """Record where the host says `reviewer` stands now (portal.hosts.payloads.STANDINGS), reported again with
    every merge request event; whether it changed anything. The same standing again changes nothing (its time is
    the first report's). A change request lives only in that standing, so any other ends it; an approval has
    its own approve / unapprove events too, so only a new standing of approved / changes_requested / dismissed
    (taken back) moves it; a comment is history no standing ends."""
    kept = ((state.get("reviews") or {}).get(reviewer) or {}).get("state")
    if standing == kept:
        return False
    if standing in ("approved", "changes_requested"):
        return apply_review(state, reviewer, standing, at)
    if standing == "dismissed":
        return kept in ("approved", "changes_requested") and apply_review(state, reviewer, "dismissed", at)
    if standing == "commented" and kept in (None, "changes_requested"):
        return _replace(state, reviewer, "commented", at)
    if standing == "unreviewed" and kept == "changes_requested":
        return apply_review(state, reviewer, "dismissed", at)
    return False


def _replace(state: dict, reviewer: str, review: str, at: str) -> bool:
    """apply_review, except that a comment replaces a change request too."""
    reviews = dict(state.get("reviews") or {})
    if _older(at, (reviews.get(reviewer) or {}).get("at")):
        return False
    reviews[reviewer] = {"state": review, "at": _stamp(at)}
    state["reviews"] = reviews
    return True


def apply_check(state: dict, name: str, check: str, url: str, commit: str, at: str) -> bool:
    """Record a check's state (passing, failing, pending) for `commit`; whether it changed anything."""
    checks = dict(state.get("checks") or {})
    if commit and commit != state.get("checks_commit"):
        newest = max((c.get("at") or "" for c in checks.values()), default="")
        if checks and _older(at, newest):
            return False  # a late report of an older commit
        checks, state["checks_commit"] = {}, commit
    kept = checks.get(name) or {}
    if _older(at, kept.get("at")):
        return False
    checks[name] = {"state": check, "url": url, "at": _stamp(at)}
    state["checks"] = checks
    return True


def summary(state: dict | None) -> dict:
    """The reviews and checks together, as the page and the API show them."""
    state = state or {}
    reviews = [
        {"reviewer": reviewer, "state": item.get("state", ""), "at": when(item.get("at"))}
        for reviewer, item in sorted((state.get("reviews") or {}).items())
    ]
    checks = [
        {"name": name, "state": item.get("state", ""), "url": item.get("url", ""), "at": when(item.get("at"))}
        for name, item in sorted((state.get("checks") or {}).items())
    ]
    review = next((word for word in REVIEW_ORDER if any(r["state"] == word for r in reviews)), "")
    checks_state = next((word for word in CHECK_ORDER if any(c["state"] == word for c in checks)), "")
    return {
        "review": review,
        "reviewers": [r["reviewer"] for r in reviews if r["state"] == review],
        "reviews": reviews,
        "checks_state": checks_state,
        "checks": checks,
        "checks_commit": state.get("checks_commit", ""),
    }
