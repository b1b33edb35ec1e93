// The replay's keys: the arrows step back and forth in the page's reading direction, Home and End
// jump to the deal and the end; the slider and the eyes selector show their choice at once.
// Every control is a plain link or a GET form first, so the replay works without this script.
(function () {
  function go(which) {
    var link = document.querySelector("#replay [data-replay='" + which + "']");
    if (link) link.click();
  }
  document.addEventListener("keydown", function (event) {
    if (!document.getElementById("replay") || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, select, textarea")) return;
    var rtl = document.documentElement.dir === "rtl";
    var keys = {
      ArrowLeft: rtl ? "next" : "prev",
      ArrowRight: rtl ? "prev" : "next",
      Home: "first",
      End: "last",
    };
    if (keys[event.key]) {
      event.preventDefault();
      go(keys[event.key]);
    }
  });
  document.addEventListener("change", function (event) {
    var form = event.target && event.target.closest ? event.target.closest("#replay form.replay-controls") : null;
    if (form) form.requestSubmit ? form.requestSubmit() : form.submit();
  });
})();
