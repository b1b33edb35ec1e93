// Shabneshin's own script on every page: countdowns, clearing the chat box after a send, and
// naming the reader's time zone to the server.
(function () {
  // A number drawn here follows the page's language, as the server's digits filter does.
  var PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
  function localDigits(text) {
    if ((document.documentElement.lang || "").split("-")[0] !== "fa") return text;
    return text.replace(/[0-9]/g, function (d) { return PERSIAN_DIGITS[Number(d)]; });
  }
  function tick() {
    document.querySelectorAll(".countdown[data-until]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.dataset.until) - Date.now()) / 1000));
      var text = localDigits(Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0"));
      if (el.textContent !== text) el.textContent = text;
      el.closest(".timer") && el.closest(".timer").classList.toggle("urgent", left <= 10);
    });
  }
  setInterval(tick, 500);
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target && event.target.closest ? event.target.closest("form.chat-form") : null;
    if (form) form.reset();
  });
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("DOMContentLoaded", tick);
  // The reader's time zone, for the server to show times in it (shabneshin/timezones.py).
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && document.cookie.indexOf("tz=" + encodeURIComponent(zone)) < 0) {
      document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* an old browser: the page's language decides the zone */ }
})();
