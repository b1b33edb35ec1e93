"""The new-table form on a phone: every game option's help stands under its choice in small text,
two lines at most, so the longest form (Night of the Mummy's, twelve options) stays short; nothing
overflows sideways; axe finds no serious or critical violation."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.flows import become_guest

pytestmark = pytest.mark.e2e

# Each option's control and its help (named by the control's aria-describedby): the help's
# lines, its font size against the label's, and whether it stands under the control.
HELP_JS = """() => [...document.querySelectorAll('[name^=opt_]')].map((control) => {
  const help = document.getElementById(control.getAttribute('aria-describedby') || '');
  if (!help) return {name: control.name, help: false};
  const style = getComputedStyle(help);
  const label = document.querySelector(`label[for="${control.id}"]`);
  const lines = Math.round(help.getBoundingClientRect().height / parseFloat(style.lineHeight));
  return {
    name: control.name,
    help: true,
    lines,
    smaller: parseFloat(style.fontSize) < parseFloat(getComputedStyle(label).fontSize),
    under: help.getBoundingClientRect().top >= control.getBoundingClientRect().bottom - 1,
  };
})"""


@pytest.mark.parametrize("language", ["fa", "en"])
def test_on_a_phone_every_option_explains_itself_in_small_text_under_its_choice(server, new_page, language):
    page = new_page(language)
    page.set_viewport_size({"width": 360, "height": 740})
    become_guest(page, server, "Afsaneh")
    for slug in ("mummy", "monster", "insidejob", "dracula"):
        page.goto(f"{server}/new/{slug}/")
        helps = page.evaluate(HELP_JS)
        assert helps, slug
        for found in helps:
            assert found["help"], (slug, found)
            assert found["smaller"] and found["under"], (slug, found)
            assert found["lines"] <= 2, (slug, language, found)
        assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0, slug
    results = Axe().run(page)
    grave = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not grave, [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in grave]


@pytest.mark.parametrize("language", ["fa", "en"])
def test_a_seven_player_mummy_table_refused_without_advanced_guests_comes_back_ticked_and_one_press_creates_it(
    server, new_page, language
):
    """Rules §2.3 V2 refuse seven or eight players without the advanced guests. A host who forgot the
    box gets the form back with it ticked, the reason beside it (named by its aria-describedby),
    and «Create table» once more creates the table."""
    page = new_page(language)
    become_guest(page, server, "Afsaneh")
    page.goto(f"{server}/new/mummy/")
    box = page.locator("input[name=opt_advanced_guests]")
    assert not box.is_checked()
    page.select_option("select[name=seat_count]", "7")
    page.locator("[data-testid=create-form] button[type=submit]").click()
    page.wait_for_load_state()
    assert "/new/mummy/" in page.url, "refused: the form again"
    assert box.is_checked()
    described = (box.get_attribute("aria-describedby") or "").split()
    reason = page.locator("#id_opt_advanced_guests_error")
    assert "id_opt_advanced_guests_error" in described and reason.is_visible()
    assert page.locator("select[name=seat_count]").input_value() == "7"
    page.locator("[data-testid=create-form] button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/t/[^/]+/$"))
