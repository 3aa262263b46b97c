"""`egress: false` must be true: with every socket call failing, the provider
still starts, indexes, counts tokens and answers."""

from __future__ import annotations

from .conftest import REPO_ROOT

SITECUSTOMIZE = '''
import socket
import sys

sys.stderr.write("network guard active\\n")

def _refuse(*args, **kwargs):
    raise OSError("network access attempted by the provider")

socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
'''


def test_provider_answers_with_the_network_cut(repo, provider_factory, tmp_path):
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(SITECUSTOMIZE)
    p = provider_factory(repo, env={"PYTHONPATH": f"{guard}:{REPO_ROOT}"})
    assert p.handshake()["type"] == "handshake_ack"
    reply = p.query(goal="retry policy")
    frames = reply["result"]["frames"]
    assert frames and all("canonical_token_cost" in f for f in frames)  # the tokenizer loaded offline
    p.send({"type": "shutdown"})
    assert p.proc.wait(timeout=15) == 0
    stderr = p.proc.stderr.read()
    assert b"network guard active" in stderr  # the guard really was in place
    assert b"network access attempted" not in stderr
