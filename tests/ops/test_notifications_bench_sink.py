"""bench/notifications.py's SMTP sink (QuickSink) counts each message once by its Message-ID, as sent
through Django's SMTP backend on one session, and its CPU accounting puts this process in its class."""

from __future__ import annotations

import os
import time

from django.core.mail import EmailMessage, get_connection

from bench import common, notifications


def wait_for(sink: notifications.Sink, count: int) -> None:
    deadline = time.time() + 10
    while sum(sink.copies.values()) < count and time.time() < deadline:
        time.sleep(0.01)


def test_the_quick_sink_counts_each_message_once_by_its_message_id():
    sink, port = notifications.Sink(), common.free_port()
    server = notifications.QuickSink(sink, port)
    server.start()
    try:
        backend = get_connection("django.core.mail.backends.smtp.EmailBackend", host="127.0.0.1", port=port)
        body = ".a line that starts with a period\n" + "x" * 70_000 + "\n.\n"
        messages = [
            EmailMessage("hi", body, "a@example.com", ["b@example.com"], headers={"Message-ID": f"<m{n}@example.com>"})
            for n in range(3)
        ]
        assert backend.send_messages(messages) == 3  # one session, three DATA
        backend.send_messages(messages[:1])  # the first again, on a new session
        wait_for(sink, 4)
    finally:
        server.stop()
    assert sink.copies == {"<m0@example.com>": 2, "<m1@example.com>": 1, "<m2@example.com>": 1}
    assert set(sink.arrived) == set(sink.copies)


def test_the_drain_counts_this_process_as_the_bench_and_the_machine_as_a_whole():
    before = notifications.cpu_now(worker=os.getpid(), database="zc_no_such_database")
    started = time.process_time()
    while time.process_time() - started < 0.2:  # busy: CPU for the bench's class and the machine
        pass
    after = notifications.cpu_now(worker=os.getpid(), database="zc_no_such_database")
    spent = after.spent_since(before)
    assert before.processes[os.getpid()][0] == "bench"
    assert spent["bench"] >= 0.15 and spent["machine"] >= spent["bench"] - 0.02
    assert spent["postgres"] == 0.0
