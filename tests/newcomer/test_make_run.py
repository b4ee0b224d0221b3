"""The README's first command, walked end to end on the embedded defaults (tests/newcomer/launcher.py): a private
PostgreSQL, migrations, the demo, a real Celery worker on the filesystem broker and the web server, started exactly
as `make run` starts them; signed in as the demo user; a scan started from its page finishes on the worker; a
triage survives a stop and a second start; nothing is left running or written outside var/."""

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
    run = MakeRun(tmp_path / "var", free_port())
    try:
        url = run.start()
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

    # The second start keeps everything: same scans (the demo is not made again), the triage still there.
    again = MakeRun(tmp_path / "var", free_port())
    try:
        url = again.start()
        assert "private PostgreSQL started" in again.output()
        session = sign_in(url)
        assert "walked by the newcomer test" in get_ok(session, f"{url}findings/{finding}/")
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
