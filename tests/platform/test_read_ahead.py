"""A move reads its player's auth generation and its table's chat generations in one read of the
cache (shabneshin.generations.read_ahead, issue 9), and what it reads is what it would have read."""

from __future__ import annotations

from unittest import mock

from django.core.cache import cache

from shabneshin import generations


def _reads():
    """The cache as generations sees it, its calls counted (``.get``, ``.get_many``)."""
    return mock.patch.object(generations, "cache", wraps=cache)


def test_keys_read_ahead_are_read_once_together_and_give_the_tokens_the_cache_holds():
    auth, chat, site = "auth-generation:ra-1", "chat-generation:table:ra-1", "chat-generation:site:ra"
    expected = (generations.current(auth), generations.current(chat), generations.current(site))
    with _reads() as seen, generations.read_ahead(auth, chat, site):
        assert (generations.current(auth), *generations.current_many(chat, site)) == expected
    assert seen.get.call_count == 0 and seen.get_many.call_count == 1, "one read of the cache for all three"


def test_a_bump_inside_the_block_is_seen_at_once():
    key = "chat-generation:table:ra-2"
    before = generations.current(key)
    with generations.read_ahead(key):
        generations.bump(key)
        after = generations.current(key)
    assert after != before and after == generations.current(key)


def test_a_key_the_cache_does_not_hold_is_made_as_usual_and_nothing_outlives_the_block():
    missing = "chat-generation:table:ra-never"
    cache.delete(missing)
    with generations.read_ahead(missing):
        made = generations.current(missing)
    assert made == generations.current(missing)
    other = "chat-generation:table:ra-3"
    with generations.read_ahead(other):
        pass
    generations.bump(other)  # outside any block: the next read asks the cache
    with _reads() as seen:
        generations.current(other)
    assert seen.get.call_count == 1


def test_an_inner_block_keeps_the_outer_values_and_drops_only_its_own():
    outer_key, inner_key = "auth-generation:ra-4", "auth-generation:ra-5"
    tokens = generations.current(outer_key), generations.current(inner_key)
    with generations.read_ahead(outer_key):
        with generations.read_ahead(inner_key):
            assert (generations.current(outer_key), generations.current(inner_key)) == tokens
        with _reads() as seen:
            assert generations.current(outer_key) == tokens[0]
            assert generations.current(inner_key) == tokens[1]
        assert seen.get.call_count == 1, "the outer key is still ahead; the inner one is read again"
