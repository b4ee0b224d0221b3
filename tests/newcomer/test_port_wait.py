"""`make run` right after a stop: the launcher waits for its port instead of failing (portal/local/stack.py)."""

from __future__ import annotations

import socket
import threading

import pytest

from portal.local import stack
from tests.newcomer.launcher import wait_for


def test_connections_the_last_run_left_in_time_wait_do_not_hold_the_port():
    # What a stopped server leaves: it closed its side of a connection first, so the port has a socket in
    # TIME_WAIT for a minute. A plain bind() fails then; runserver (SO_REUSEADDR) would start.
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()
    server.close()
    client.close()

    assert stack._wait_for_port(port, [], wait=0) is True


def test_a_port_still_held_is_waited_for_with_a_message(capsys):
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    outcome: list = []

    def start() -> None:
        try:
            outcome.append(stack._wait_for_port(port, [], wait=600))
        except stack.LaunchError as error:
            outcome.append(error)

    waiter = threading.Thread(target=start, daemon=True)
    waiter.start()
    said = ""

    def waiting() -> bool:
        nonlocal said
        said += capsys.readouterr().out
        return "is in use; waiting up to 600 s" in said

    wait_for(waiting, 120, "the launcher to say it waits for the port", interval=0.1)
    assert waiter.is_alive() and outcome == []
    holder.close()  # the previous server has exited
    waiter.join(120)
    assert outcome == [True]


def test_a_port_that_stays_taken_ends_the_start_naming_another_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(stack.LaunchError, match=rf"port {port} on 127.0.0.1 is taken .*PORT={port + 1} make run"):
            stack._wait_for_port(port, [], wait=0.5)


def test_a_stop_while_waiting_starts_nothing():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        assert stack._wait_for_port(holder.getsockname()[1], [2], wait=600) is False
