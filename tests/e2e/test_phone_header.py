"""The header on a phone: its links that do not fit scroll sideways without a scrollbar, and the
edge beyond which there is more fades out (a scroll-driven mask), in either direction of
writing. A bar that fits shows no fade: nothing in it is dimmed for nothing."""

from __future__ import annotations

import pytest

from tests.e2e.flows import become_guest

pytestmark = pytest.mark.e2e

FADES = """() => {
  const nav = document.querySelector('.topbar .nav');
  const style = getComputedStyle(nav);
  return [parseFloat(style.getPropertyValue('--nav-fade-start')), parseFloat(style.getPropertyValue('--nav-fade-end')),
          nav.scrollWidth > nav.clientWidth];
}"""


def _scroll_to_the_end(page) -> None:
    # In right-to-left writing, scrollLeft runs from 0 to minus the overflow.
    page.evaluate("""() => {
      const nav = document.querySelector('.topbar .nav');
      const rtl = getComputedStyle(nav).direction === 'rtl';
      nav.scrollLeft = (rtl ? -1 : 1) * (nav.scrollWidth - nav.clientWidth);
    }""")
    page.wait_for_timeout(100)


@pytest.mark.parametrize("language", ["fa", "en"])
def test_a_phone_header_fades_the_edge_with_more_links_beyond_it(server, new_page, language):
    """Meera, a guest on a 360 px phone, sees the end of the bar fade while links are hidden
    past it; scrolled to the end, the start fades instead and the last link shows whole."""
    page = new_page(language)
    page.set_viewport_size({"width": 360, "height": 740})
    become_guest(page, server, "Meera")
    start, end, overflows = page.evaluate(FADES)
    assert overflows, "a guest's bar is wider than a phone: the test needs it to scroll"
    assert (start, end) == (0, 40), "at the start: only the far edge fades (2.5rem)"
    _scroll_to_the_end(page)
    start, end, _ = page.evaluate(FADES)
    assert start == 40 and end < 1, "at the end: only the near edge fades (a scroll ends within a pixel)"


def test_a_scrolling_bar_that_fits_fades_nothing(server, new_page):
    """A visitor's shorter bar on a 740 px tablet: the bar scrolls sideways there (the phone
    layout) but everything fits, so nothing is dimmed; nor on a desktop's bar."""
    page = new_page("en")
    page.set_viewport_size({"width": 740, "height": 900})
    page.goto(f"{server}/")
    assert page.evaluate("getComputedStyle(document.querySelector('.topbar .nav')).overflowX") == "auto"
    start, end, overflows = page.evaluate(FADES)
    assert not overflows and (start, end) == (0, 0)
    page.set_viewport_size({"width": 1280, "height": 900})
    become_guest(page, server, "Meera")
    start, end, overflows = page.evaluate(FADES)
    assert not overflows and (start, end) == (0, 0)


def test_the_language_menu_moves_by_arrow_keys_and_switches_on_enter_or_a_pick(server, new_page):
    """A keyboard user looks through the languages with the arrow keys without leaving the page;
    Enter switches. A pick with the mouse switches at once."""
    page = new_page("en")
    page.goto(server + "/")
    menu = page.locator("select[name=language]")
    menu.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(500)
    assert page.evaluate("document.documentElement.lang") == "en", "an arrow key does not switch"
    menu.select_option("fa")  # as the arrows leave it: nothing sent yet
    page.keyboard.press("Enter")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    page.locator("select[name=language]").select_option("en")  # a pick, as with the mouse
    page.wait_for_function("document.documentElement.lang === 'en'")


def test_every_page_offers_a_skip_link_to_its_content_as_the_first_tab_stop(server, new_page):
    page = new_page("en")
    page.goto(server + "/clubs/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "skip-to-content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
