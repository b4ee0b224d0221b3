"""Registering a clone URL the remote answers "no" to is refused, saying which answer and why; one that does not
answer this web server is saved under a warning banner (never a success banner) that says why; a refused http://
URL names the setting that allows it. Real git servers on 127.0.0.1: smart HTTP (git http-backend), a redirect, a
closed port, a port that never answers."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from portal.repositories.models import Repository
from tests.portal.people import client_for
from tests.portal.servers import GitHttpServer, free_port

pytestmark = pytest.mark.django_db

ZH = {"headers": {"Accept-Language": "zh-CN,zh;q=0.9"}}


@pytest.fixture
def public_http(tmp_path, repo_factory, settings):
    """A host's public repositories over smart HTTP on 127.0.0.1: project.git exists, nothing else does."""
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    repo_factory("http/project.git").commit("add", **{"k.cu": "int k;\n"})
    server = GitHttpServer(tmp_path / "http", public=True)
    yield server
    server.stop()


def _register(client, people, clone_url: str, **extra):
    body = {"name": "kernels", "clone_url": clone_url, "default_branch": "main", **extra}
    return client.post(reverse("repositories:add", args=[people.team.pk]), body)


def _banners(response) -> list[tuple[str, str]]:
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def _clone_url_errors(response) -> list[str]:
    return response.context["form"].errors.get("clone_url", [])


def test_a_repository_the_server_does_not_have_is_refused_in_both_languages(people, public_http):
    missing = public_http.url("projcet.git")
    refused = _register(client_for(people.alice), people, missing)
    assert refused.status_code == 200
    assert _clone_url_errors(refused) == [
        f"There is no repository at {missing}: the server answered that it does not exist. Check the address "
        "(a private repository may also need its credentials)."
    ]
    zh = _register(client_for(people.alice, **ZH), people, missing)
    assert _clone_url_errors(zh) == [
        f"{missing} 处没有仓库：服务器答复它不存在。请检查地址（私有仓库可能还需要凭据）。"
    ]
    assert not Repository.objects.exists()

    saved = _register(client_for(people.alice), people, public_http.url("project.git"))
    assert saved.status_code == 302
    assert _banners(saved) == [("success", "Repository kernels registered. Start its first scan from here.")]


def test_a_redirect_is_refused_and_never_followed(people, public_http):
    """The redirect leads to a real repository: following it would register the URL."""
    target = public_http.url("project.git")

    class Redirect(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(301)
            self.send_header("Location", target + self.path[len("/moved.git") :])
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    server.socket.settimeout(1.0)  # an accept never outwaits shutdown(): tests.portal.servers.serve_http
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        moved = f"http://127.0.0.1:{server.server_address[1]}/moved.git"
        refused = _register(client_for(people.alice), people, moved)
        assert refused.status_code == 200
        (error,) = _clone_url_errors(refused)
        assert error.startswith(f"{moved} answers with a redirect (HTTP 301) to another address.")
        assert "never follows a redirect" in error
        assert not Repository.objects.exists()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "scheme, language, why",
    [
        ("http", "en", "the connection to the host failed"),  # curl does not say why
        ("http", "zh", "连接主机失败"),
        ("git", "en", "the host refused the connection"),
        ("git", "zh", "主机拒绝了连接"),
    ],
)
def test_a_closed_port_saves_under_a_warning_banner(people, settings, scheme, language, why):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    url = f"{scheme}://127.0.0.1:{free_port()}/kernels.git"  # nothing listens there
    response = _register(client_for(people.alice, **(ZH if language == "zh" else {})), people, url)
    assert response.status_code == 302 and Repository.objects.filter(name="kernels", clone_url=url).exists()
    [(level, text)] = _banners(response)
    assert level == "warning"
    if language == "en":
        assert text == (
            f"Repository kernels registered with a warning: {url} did not answer this server ({why}), so neither "
            "the repository nor its branch main could be checked. The workers may reach hosts this web server "
            "cannot: the first scan will tell."
        )
    else:
        assert text.startswith(f"代码仓库 kernels 已注册，但有警告：{url} 没有应答本服务器（{why}）")


def test_a_host_name_that_does_not_resolve_saves_under_a_warning_banner(people, settings):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True  # the URL check would refuse the name itself otherwise
    response = _register(client_for(people.alice), people, "https://git.no-such-host.invalid/gpu/kernels.git")
    assert response.status_code == 302
    [(level, text)] = _banners(response)
    assert level == "warning" and "(the host name could not be resolved)" in text


def test_a_host_that_never_answers_saves_under_a_warning_after_the_time_limit(people, settings):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = True
    settings.ROCPORT_CLONE_TIMEOUT = 2  # the check waits min(20 s, the clone's limit)
    with socket.socket() as silent:  # the kernel completes the connection; nobody ever reads or answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/kernels.git"
        response = _register(client_for(people.alice), people, url)
    assert response.status_code == 302
    [(level, text)] = _banners(response)
    assert level == "warning" and f"{url} did not answer this server (no answer within 2 seconds)" in text


@pytest.mark.parametrize(
    "language, hint",
    [
        ("en", "Plain http:// is allowed only when the server runs with ROCPORT_ALLOW_PRIVATE_HOSTS=1"),
        ("zh", "只有服务器以 ROCPORT_ALLOW_PRIVATE_HOSTS=1 运行时才允许普通 http://"),
    ],
)
def test_a_refused_http_url_names_the_setting_that_allows_it(people, public_http, settings, language, hint):
    settings.ROCPORT_ALLOW_PRIVATE_HOSTS = False
    client = client_for(people.alice, **(ZH if language == "zh" else {}))
    refused = _register(client, people, public_http.url("project.git"))
    (error,) = _clone_url_errors(refused)
    assert hint in error
    assert hint in refused.content.decode()  # shown on the form, not only kept in the form object
    # An https URL on a private address names the same setting
    private = _register(client, people, "https://127.0.0.1/kernels.git")
    assert "ROCPORT_ALLOW_PRIVATE_HOSTS=1" in " ".join(_clone_url_errors(private))
    assert not Repository.objects.exists()


def test_a_refused_local_path_names_the_setting_that_allows_it(people, settings, repo_factory):
    settings.ROCPORT_ALLOW_LOCAL_REPOS = False
    refused = _register(client_for(people.alice), people, repo_factory().url)
    assert "ROCPORT_ALLOW_LOCAL_REPOS=1" in " ".join(_clone_url_errors(refused))
