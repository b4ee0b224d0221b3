"""The README's first command, walked end to end on the embedded defaults (tests/newcomer/launcher.py): a private
PostgreSQL, migrations, the demo, a real Celery worker on the filesystem broker and the web server, started exactly
as `make run` starts them, on a port that is not the default; signed in as the demo user; links name that port, an
unknown address gets the portal's own 404 (DEBUG off) and the stylesheet is served; a scan started from its page
finishes on the worker; a second start on the same port right after the stop keeps the triage and the browser's
session; nothing is left running or written outside var/."""

from __future__ import annotations

import re
import signal

import requests

from tests.newcomer.launcher import MakeRun, free_port, tree_state, wait_for


def sign_in(url: str) -> requests.Session:
    session = requests.Session()
    page = session.get(url + "accounts/login/", timeout=60)
    assert page.status_code == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    response = session.post(
        url + "accounts/login/",
        timeout=60,
        headers={"Referer": url + "accounts/login/"},
        data={"csrfmiddlewaretoken": token, "username": "demo", "password": "rocport-demo"},
    )
    assert response.status_code == 200 and "/accounts/login/" not in response.url, response.text[:500]
    return session


def csrf(session: requests.Session, page_url: str) -> str:
    page = session.get(page_url, timeout=60)
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)


def get_ok(session: requests.Session, url: str) -> str:
    response = session.get(url, timeout=120)
    assert response.status_code == 200, f"{url}: {response.status_code}"
    return response.text


def test_make_run_walks_from_a_fresh_var_to_a_second_start(tmp_path):
    before = tree_state()
    port = free_port()
    assert port != 8000
    run = MakeRun(tmp_path / "var", port)
    try:
        url = run.start()
        assert url == f"http://127.0.0.1:{port}/"
        session = sign_in(url)

        portfolio = get_ok(session, url)
        repository = int(re.search(r"/repositories/(\d+)/dashboard/", portfolio).group(1))
        dashboard = get_ok(session, f"{url}repositories/{repository}/dashboard/")
        assert "cuda-demo" in dashboard
        findings = get_ok(session, f"{url}findings/")
        finding = int(re.search(r'href="/findings/(\d+)/"', findings).group(1))
        scans = session.get(f"{url}api/v1/repositories/{repository}/scans/", timeout=60).json()
        newest = max(scan["id"] for scan in scans["items"])
        scan_page = get_ok(session, f"{url}scans/{newest}/")
        assert f"/repositories/{repository}/files/src/softmax.cu" in scan_page + dashboard
        file_page = get_ok(session, f"{url}repositories/{repository}/files/src/softmax.cu")
        # The HIP side of the diff: the demo's cudaGetLastError and cudaStream_t, translated.
        assert "hipGetLastError" in file_page and "hipStream_t" in file_page, "the file page shows no HIP diff"

        # Links name the port it serves on (not 8000), on pages and in what the worker sends out (SITE_URL).
        settings_page = get_ok(session, f"{url}repositories/{repository}/settings/")
        for provider in ("github", "gitlab", "gitea"):
            assert f"{url}hooks/{repository}/{provider}/" in settings_page
        assert ":8000" not in settings_page

        # DEBUG is off: an unknown address is the portal's page, not Django's list of every URL pattern.
        missing = session.get(f"{url}no/such/page/", timeout=60)
        assert missing.status_code == 404
        assert "<h1>Not found</h1>" in missing.text and 'class="top"' in missing.text
        assert "URLconf" not in missing.text and "admin/" not in missing.text
        # ...and the static files are still served (WhiteNoise, as under gunicorn).
        stylesheet = re.search(r'href="(/static/[^"]*rocport[^"]*\.css)"', missing.text).group(1)
        css = session.get(url.rstrip("/") + stylesheet, timeout=60)
        assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
        assert "header.top" in css.text

        # A triage that the second start must still show.
        token = csrf(session, f"{url}findings/{finding}/")
        response = session.post(
            f"{url}findings/{finding}/triage/",
            timeout=60,
            headers={"Referer": f"{url}findings/{finding}/"},
            data={"csrfmiddlewaretoken": token, "decision": "false_positive", "reason": "walked by the newcomer test"},
        )
        assert response.status_code == 200
        assert "walked by the newcomer test" in get_ok(session, f"{url}findings/{finding}/")

        # A scan started from the repository's page runs on the worker (nothing runs it inline).
        token = csrf(session, f"{url}repositories/{repository}/")
        response = session.post(
            f"{url}repositories/{repository}/scan/",
            timeout=60,
            headers={"Referer": f"{url}repositories/{repository}/"},
            data={"csrfmiddlewaretoken": token, "branch": "main"},
        )
        assert response.status_code == 200
        started = int(re.search(r"/scans/(\d+)/$", response.url).group(1))
        assert started > newest

        def finished():
            status = session.get(f"{url}api/v1/scans/{started}/", timeout=60).json()["status"]
            assert status not in ("failed", "cancelled"), status
            return status == "finished"

        wait_for(finished, 600, f"scan {started} to finish on the worker")
        scan_count = len(session.get(f"{url}api/v1/repositories/{repository}/scans/", timeout=60).json()["items"])
    except BaseException:
        print(run.output())
        run.kill()
        raise

    assert run.stop(signal.SIGINT) == 0, run.output()
    assert run.left_running() == [], run.output()
    assert tree_state() == before, "make run wrote outside var/"

    # The second start, at once and on the same port (the last run's connections may still hold it in TIME_WAIT),
    # keeps everything: same scans (the demo is not made again), the triage, and the browser still signed in.
    again = MakeRun(tmp_path / "var", port)
    try:
        assert again.start() == url
        assert "private PostgreSQL started" in again.output()
        kept = session.get(f"{url}findings/{finding}/", timeout=120)
        assert kept.status_code == 200 and "/accounts/login/" not in kept.url, "the restart signed the browser out"
        assert "walked by the newcomer test" in kept.text
        assert (
            len(session.get(f"{url}api/v1/repositories/{repository}/scans/", timeout=60).json()["items"]) == scan_count
        )
    except BaseException:
        print(again.output())
        again.kill()
        raise
    # A closed terminal (SIGHUP) stops it as Ctrl-C does.
    assert again.stop(signal.SIGHUP) == 0, again.output()
    assert again.left_running() == [], again.output()
