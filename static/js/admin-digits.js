// The Persian admin's numbers and dates that Django's scripts write, as the server writes the rest
// of the page (shabneshin.admin_calendar). Loaded on a Persian admin page only, deferred: it runs
// after the translation catalogue and before the admin's own scripts first write.
(function () {
  "use strict";
  var language = document.documentElement.lang || "fa";

  // Counts ("3 of 100 selected" as rows are ticked, "2 of 5 selected" in a two-box chooser, "you
  // are 3.5 hours ahead of server time") are put into their sentence by the catalogue's
  // interpolate(): its numbers in the page's digits. A string given to it (an element's id in a
  // selector) passes through as it was.
  var original = window.interpolate;
  if (typeof original === "function") {
    var shown = function (value) {
      return typeof value === "number" ? value.toLocaleString(language, { useGrouping: false }) : value;
    };
    window.interpolate = function (fmt, obj, named) {
      var given = {};
      if (named) {
        Object.keys(obj).forEach(function (key) { given[key] = shown(obj[key]); });
      } else {
        given = Array.prototype.map.call(obj, shown);
      }
      return original(fmt, given, named);
    };
  }

  // A date box takes an ISO date (2026-12-07), as Django's does, and its calendar is Gregorian:
  // beside it, the day it names in the Jalali calendar («۱۶ آذر ۱۴۰۵»), read by the browser's own
  // calendar (Intl, "persian"), kept up to date as the date is typed or picked.
  var jalali = new Intl.DateTimeFormat(language + "-u-ca-persian-nu-arabext", {
    timeZone: "UTC", day: "numeric", month: "long", year: "numeric"
  });
  function reading(value) {
    var found = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/.exec(value);
    if (!found) return "";
    var day = new Date(Date.UTC(+found[1], +found[2] - 1, +found[3]));
    if (day.getUTCMonth() !== +found[2] - 1) return "";  // no such day (2026-02-30)
    return jalali.formatToParts(day).filter(function (part) { return part.type !== "era"; })
      .map(function (part) { return part.value; }).join("").trim();
  }
  function refresh() {
    document.querySelectorAll("input.vDateField").forEach(function (box) {
      if (!box.jalaliReading) {
        box.jalaliReading = document.createElement("span");
        box.jalaliReading.className = "mini quiet jalali-reading";
        box.jalaliReading.style.marginInlineStart = "0.5em";
        var shortcuts = box.nextElementSibling;
        var after = shortcuts && shortcuts.classList.contains("datetimeshortcuts") ? shortcuts : box;
        after.insertAdjacentElement("afterend", box.jalaliReading);
      }
      box.jalaliReading.textContent = reading(box.value);
    });
  }
  // After the admin's calendar has put its links beside each box (on load); its links set a box's
  // value without an event, so a click anywhere refreshes the readings too.
  window.addEventListener("load", refresh);
  document.addEventListener("input", refresh);
  document.addEventListener("change", refresh);
  document.addEventListener("click", function () { window.setTimeout(refresh, 0); }, true);
})();
