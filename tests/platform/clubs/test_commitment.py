"""The night's committed seed: the reveal checks out, and each round's chance depends on every input."""

from __future__ import annotations

from clubs import commitment


def stream(rng, n=8):
    return [rng.random() for _ in range(n)]


def test_the_revealed_secret_hashes_to_the_commitment():
    secret = commitment.new_secret()
    assert len(secret) == 64 and int(secret, 16) >= 0
    published = commitment.commitment(secret)
    assert commitment.verify(secret, published)
    assert commitment.verify(secret, published.upper())


def test_another_or_a_malformed_secret_does_not_check_out():
    secret, other = commitment.new_secret(), commitment.new_secret()
    assert secret != other
    published = commitment.commitment(secret)
    assert not commitment.verify(other, published)
    assert not commitment.verify("not hex", published)
    assert not commitment.verify(secret[:-1], published)


def test_the_commitment_is_sha256_of_the_secret_bytes():
    import hashlib

    secret = "00" * 31 + "01"
    assert commitment.commitment(secret) == hashlib.sha256(bytes(31) + b"\x01").hexdigest()


def test_a_round_draws_the_same_chance_from_the_same_inputs_whatever_the_order_of_people():
    secret = commitment.new_secret()
    a = stream(commitment.round_rng(secret, 2, ["u1", "u2", "w3"]))
    b = stream(commitment.round_rng(secret, 2, ["w3", "u1", "u2"]))
    assert a == b


def test_a_rounds_chance_depends_on_the_secret_the_round_and_each_person():
    secret = commitment.new_secret()
    base = stream(commitment.round_rng(secret, 1, ["u1", "u2", "u3"]))
    assert stream(commitment.round_rng(commitment.new_secret(), 1, ["u1", "u2", "u3"])) != base
    assert stream(commitment.round_rng(secret, 2, ["u1", "u2", "u3"])) != base
    assert stream(commitment.round_rng(secret, 1, ["u1", "u2", "u4"])) != base
    assert stream(commitment.round_rng(secret, 1, ["u1", "u2"])) != base
    assert stream(commitment.round_rng(secret, 1, ["u1", "u2", "u3", "w9"])) != base


def test_the_round_rng_is_the_documented_hmac():
    import hashlib
    import hmac
    import random

    secret = "ab" * 32
    message = "shabneshin-night-v1\nround:3\nu1,u10,u2"
    digest = hmac.new(bytes.fromhex(secret), message.encode(), hashlib.sha256).digest()
    expected = random.Random(int.from_bytes(digest, "big"))
    assert stream(commitment.round_rng(secret, 3, ["u2", "u10", "u1"])) == stream(expected)


def test_table_deal_secrets_differ_by_round_table_and_attempt_and_from_the_round_stream():
    secret = commitment.new_secret()
    seen = {commitment.table_deal_secret(secret, r, t, a) for r in range(1, 4) for t in range(3) for a in range(4)}
    assert len(seen) == 36
    assert all(len(s) == 64 for s in seen)
    assert commitment.table_deal_secret(secret, 1, 0, 0) == commitment.table_deal_secret(secret, 1, 0, 0)
    assert commitment.deal_message(1, 0, 0) != commitment.round_message(1, [])
