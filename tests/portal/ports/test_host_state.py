"""The rules of what the host says about a merge request (portal.ports.host_state): a comment leaves an approval, a
dismissal forgets it, a newer commit's checks replace the older ones, a late report is ignored, the hosts' two date
forms are read."""

from __future__ import annotations

from portal.ports import host_state


def test_both_date_forms_are_read():
    assert host_state.when("2016-08-12 15:26:29 UTC").isoformat() == "2016-08-12T15:26:29+00:00"  # GitLab's
    assert host_state.when("2019-05-15T15:20:55+00:00").isoformat() == "2019-05-15T15:20:55+00:00"
    assert host_state.when("2019-05-15T15:21:12Z").isoformat() == "2019-05-15T15:21:12+00:00"
    assert host_state.when("yesterday") is None and host_state.when("") is None


def test_a_comment_leaves_an_approval_and_a_dismissal_forgets_it():
    state: dict = {}
    assert host_state.apply_review(state, "a", "approved", "2026-01-01T10:00:00Z")
    assert not host_state.apply_review(state, "a", "commented", "2026-01-01T11:00:00Z")
    assert host_state.summary(state)["review"] == "approved"
    assert not host_state.apply_review(state, "a", "changes_requested", "2026-01-01T09:00:00Z")  # late, older
    assert host_state.apply_review(state, "a", "dismissed", "2026-01-01T12:00:00Z")
    assert host_state.summary(state)["review"] == "" and state["reviews"] == {}


def test_a_newer_commits_checks_replace_the_older_ones_and_late_reports_are_ignored():
    state: dict = {}
    host_state.apply_check(state, "build", "failing", "", "a" * 40, "2026-01-01T10:00:00Z")
    host_state.apply_check(state, "lint", "passing", "", "a" * 40, "2026-01-01T10:01:00Z")
    assert host_state.summary(state)["checks_state"] == "failing"
    assert host_state.apply_check(state, "build", "pending", "", "b" * 40, "2026-01-01T11:00:00Z")
    assert [c["name"] for c in host_state.summary(state)["checks"]] == ["build"]
    assert not host_state.apply_check(state, "lint", "failing", "", "a" * 40, "2026-01-01T10:02:00Z")  # old commit
    assert not host_state.apply_check(state, "build", "pending", "", "b" * 40, "2026-01-01T10:59:00Z")
    assert host_state.apply_check(state, "build", "passing", "", "b" * 40, "2026-01-01T11:05:00Z")
    assert host_state.summary(state) | {"checks": None} == {
        "review": "",
        "reviewers": [],
        "reviews": [],
        "checks_state": "passing",
        "checks": None,
        "checks_commit": "b" * 40,
    }


def test_a_hosts_standing_ends_a_change_request_but_leaves_an_approval_to_its_own_events():
    state: dict = {}
    assert host_state.apply_standing(state, "a", "changes_requested", "2026-01-01T10:00:00Z")
    assert not host_state.apply_standing(state, "a", "changes_requested", "2026-01-01T10:30:00Z")  # said again
    assert state["reviews"]["a"]["at"] == "2026-01-01T10:00:00+00:00"  # the first report's time
    assert not host_state.apply_standing(state, "a", "unreviewed", "2026-01-01T09:00:00Z")  # late, older
    assert host_state.apply_standing(state, "a", "unreviewed", "2026-01-01T11:00:00Z")  # asked again: it ends
    assert state["reviews"] == {}
    host_state.apply_standing(state, "a", "changes_requested", "2026-01-01T12:00:00Z")
    assert host_state.apply_standing(state, "a", "commented", "2026-01-01T13:00:00Z")  # reviewed: it ends too
    assert host_state.summary(state)["review"] == "commented"
    assert host_state.apply_standing(state, "b", "approved", "2026-01-01T10:00:00Z")
    assert not host_state.apply_standing(state, "b", "unreviewed", "2026-01-01T11:00:00Z")
    assert not host_state.apply_standing(state, "b", "commented", "2026-01-01T11:00:00Z")
    assert host_state.summary(state)["review"] == "approved"
    assert host_state.apply_standing(state, "b", "dismissed", "2026-01-01T12:00:00Z")  # unapproved: it ends
    host_state.apply_review(state, "c", "commented", "2026-01-01T10:00:00Z")  # a note
    assert not host_state.apply_standing(state, "c", "dismissed", "2026-01-01T11:00:00Z")
    assert not host_state.apply_standing(state, "c", "unreviewed", "2026-01-01T11:00:00Z")
    assert [(r["reviewer"], r["state"]) for r in host_state.summary(state)["reviews"]] == [
        ("a", "commented"),
        ("c", "commented"),
    ]
