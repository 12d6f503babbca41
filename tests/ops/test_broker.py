"""The embedded broker's transport (zarkcity_site/broker.py), one interleaving at a time: a consumer
that lists the folder while a producer is writing sees the whole message or nothing."""

from __future__ import annotations

import json
from queue import Empty

import pytest
from kombu import Connection
from kombu.transport import filesystem

from zarkcity_site import broker

PAYLOAD = {"body": "the sweep", "properties": {"delivery_tag": "1"}}


@pytest.fixture
def folders(tmp_path):
    for sub in ("in", "processed", "control"):
        (tmp_path / sub).mkdir()
    return tmp_path


def channel(folders, transport):
    options = {
        "data_folder_in": str(folders / "in"),
        "data_folder_out": str(folders / "in"),
        "processed_folder": str(folders / "processed"),
        "taken_folder": str(folders / "processed"),
        "quarantine_folder": str(folders / "quarantine"),
        "control_folder": str(folders / "control"),
        "store_processed": False,
    }
    return Connection("filesystem://", transport=transport, transport_options=options).default_channel


def test_stock_transport_hands_a_consumer_a_message_not_yet_written(folders, monkeypatch):
    """The defect in issue 13: the file exists under its final name, empty, while it is written."""
    stock = channel(folders, filesystem.Transport)
    seen = []
    real = filesystem.str_to_bytes

    def consumer_looks_mid_write(text):
        seen.append(pytest.raises(json.JSONDecodeError, stock._get, "celery"))
        return real(text)

    monkeypatch.setattr(filesystem, "str_to_bytes", consumer_looks_mid_write)
    stock._put("celery", PAYLOAD)
    assert seen, "the consumer did not run mid-write"


def test_a_message_being_written_is_invisible_until_whole(folders, monkeypatch):
    ours = channel(folders, broker.Transport)
    real_replace = broker.os.replace

    def consumer_looks_before_rename(src, dst):
        with pytest.raises(Empty):
            ours._get("celery")
        real_replace(src, dst)

    monkeypatch.setattr(broker.os, "replace", consumer_looks_before_rename)
    ours._put("celery", PAYLOAD)
    monkeypatch.undo()
    assert ours._get("celery") == PAYLOAD
    with pytest.raises(Empty):
        ours._get("celery")


def test_messages_come_out_oldest_first_per_queue(folders):
    ours = channel(folders, broker.Transport)
    for n in range(3):
        ours._put("celery", {"n": n})
    ours._put("other", {"n": "other"})
    assert [ours._get("celery")["n"] for _ in range(3)] == [0, 1, 2]
    assert ours._get("other") == {"n": "other"}


def test_an_unreadable_message_is_set_aside_not_fatal(folders, caplog):
    ours = channel(folders, broker.Transport)
    (folders / "in" / "1_broken.celery.msg").write_bytes(b"")
    with pytest.raises(Empty):
        ours._get("celery")
    ours._put("celery", PAYLOAD)
    assert ours._get("celery") == PAYLOAD
    assert [p.name for p in (folders / "quarantine").iterdir()] == ["1_broken.celery.msg"]
    assert "unreadable message 1_broken.celery.msg" in caplog.text
    assert list((folders / "processed").iterdir()) == []


def test_the_site_uses_this_transport_on_the_embedded_default(settings):
    if settings.REDIS_URL:
        pytest.skip("Redis is the broker here")
    from zarkcity_site.celery import app

    with app.connection_for_write() as connection:
        assert connection.get_transport_cls() is broker.Transport


def test_a_connection_to_the_folders_warns_of_no_missing_hostname(folders, caplog):
    """kombu falls back to "localhost" for a URL without a host, with a warning on every connection (the
    worker's, each `manage.py receive_email`): the folder transport has no host to fall back on."""
    with caplog.at_level("WARNING", logger="kombu"):
        connection = channel(folders, broker.Transport).connection.client
        info = connection.info()
        stock = Connection("filesystem://", transport=filesystem.Transport)
        stock.info()
    assert info["hostname"] is None and info["transport"] is broker.Transport
    warned = [r.getMessage() for r in caplog.records]
    assert warned == ["No hostname was supplied. Reverting to default 'localhost'"]  # the stock one's, only
