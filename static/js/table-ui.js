// The table page around its fragments (templates/tables/table.html): the phone dock and its
// sheets, a tap that survives a re-render, turn alerts, focus kept on the same action, and a polite
// announcer. Everything here reads the fragments the server sends and never changes what is sent,
// except to send again the action a re-render took from under the player's finger.
(function () {
  "use strict";
  var page = null;
  var PHONE = window.matchMedia("(max-width: 760px)");

  function $(selector) { return document.querySelector(selector); }
  function actionButtons() { return Array.prototype.slice.call(document.querySelectorAll("#actions button.action")); }
  // The exact JSON of the legal action a control sends (the contract's hidden input), or null.
  function actionOf(el) {
    var form = el && el.closest ? el.closest("form") : null;
    var input = form ? form.querySelector("input[name=action]") : null;
    return input ? input.value : null;
  }
  function buttonFor(json) {
    var found = actionButtons().filter(function (b) { return actionOf(b) === json; });
    return found.length ? found[0] : null;
  }
  function myTurn() {
    var status = $("#status");
    return !!(status && status.classList.contains("my-turn") && actionButtons().length);
  }
  function stored(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function store(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ } }

  // --- a tap is never lost to a re-render ---------------------------------------------------------
  // A pointer pressed on an action whose form is then swapped out (an oob swap of #actions between
  // the touch and the click) would click nothing. Remember the action on pointerdown; if the
  // browser's own click did not reach a button with that action, press the re-rendered button
  // with the same action once (it carries the current version). A gone action sends nothing.
  var pressed = null;
  var resent = null;
  document.addEventListener("pointerdown", function (event) {
    var button = event.target.closest ? event.target.closest("#actions button.action") : null;
    pressed = button ? { button: button, json: actionOf(button), rect: button.getBoundingClientRect(), clicked: false } : null;
  }, true);
  document.addEventListener("pointercancel", function () { pressed = null; }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.action") : null;
    if (!button) return;
    var json = actionOf(button);
    if (event.isTrusted && resent && resent.json === json && Date.now() - resent.at < 1000) {
      event.preventDefault();  // the browser's late click of a tap already sent for it
      event.stopImmediatePropagation();
      resent = null;
      return;
    }
    if (pressed && pressed.json === json) pressed.clicked = true;
  }, true);
  function within(rect, x, y) { return x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom; }
  document.addEventListener("pointerup", function (event) {
    var press = pressed;
    if (!press) return;
    var x = event.clientX, y = event.clientY;
    setTimeout(function () {
      if (pressed === press) pressed = null;
      if (press.clicked || press.button.isConnected) return;
      var again = buttonFor(press.json);
      // Released where the button was, or is now: a finger slid away means "not this one".
      if (!again || !(within(press.rect, x, y) || within(again.getBoundingClientRect(), x, y))) return;
      again.click();
      resent = { json: press.json, at: Date.now() };
    }, 0);
  }, true);

  // --- focus stays on the same action across a swap ----------------------------------------------
  var focusMemo = null;
  // An open menu (the host's, say) stays open, with its choices, when its fragment is swapped
  // for a newer version: a bot's move must not close it under the host's finger.
  var openMemo = [];
  function rememberOpen() {
    openMemo = Array.prototype.map.call(document.querySelectorAll("details[open][data-testid]"), function (d) {
      var picks = {};
      Array.prototype.forEach.call(d.querySelectorAll("select[data-testid]"), function (s) { picks[s.dataset.testid] = s.value; });
      return { id: d.dataset.testid, picks: picks };
    });
  }
  function restoreOpen() {
    openMemo.forEach(function (memo) {
      var d = document.querySelector('details[data-testid="' + memo.id + '"]');
      if (!d) return;
      d.open = true;
      Object.keys(memo.picks).forEach(function (id) {
        var s = d.querySelector('select[data-testid="' + id + '"]');
        if (s && Array.prototype.some.call(s.options, function (o) { return o.value === memo.picks[id]; })) s.value = memo.picks[id];
      });
    });
    openMemo = [];
  }
  function rememberFocus() {
    var active = document.activeElement;
    focusMemo = null;
    if (!active || active === document.body) return;
    if (active.closest("#actions")) focusMemo = { inActions: true, json: actionOf(active) };
    else if (active.id) focusMemo = { id: active.id, start: active.selectionStart, end: active.selectionEnd };
  }
  function restoreFocus() {
    var memo = focusMemo;
    focusMemo = null;
    var active = document.activeElement;
    if (!memo || (active && active !== document.body && active.isConnected)) return;
    var target = null;
    if (memo.inActions) {
      target = (memo.json && buttonFor(memo.json)) || actionButtons()[0] || null;
      if (!target && $("#actions")) { target = $("#actions"); target.tabIndex = -1; }
    } else {
      target = document.getElementById(memo.id);
    }
    if (!target) return;
    target.focus({ preventScroll: true });
    if (memo.start != null && target.setSelectionRange) {
      try { target.setSelectionRange(memo.start, memo.end); } catch (e) { /* not a text field */ }
    }
  }

  // --- turn alerts: title, favicon, sound, notification, vibration ------------------------------
  var baseTitle = document.title;
  var wasMyTurn = false;
  var audio = null;
  function beep() {
    try {
      var ctx = audio || (audio = new (window.AudioContext || window.webkitAudioContext)());
      var now = ctx.currentTime;
      var tone = ctx.createOscillator();
      var gain = ctx.createGain();
      tone.type = "sine";
      tone.frequency.setValueAtTime(660, now);
      tone.frequency.setValueAtTime(880, now + 0.12);
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      tone.connect(gain).connect(ctx.destination);
      tone.start(now);
      tone.stop(now + 0.32);
    } catch (e) { /* no audio here */ }
  }
  function notificationsOn() {
    return "Notification" in window && Notification.permission === "granted" && stored("shabneshin.notify") === "1";
  }
  function alertTurn() {
    if (stored("shabneshin.sound") === "1") beep();
    if (navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* refused */ } }
    if (document.hidden && notificationsOn()) {
      try { new Notification(page.dataset.turnTitle, { body: baseTitle, tag: "shabneshin-turn" }); } catch (e) { /* refused */ }
    }
  }
  function showTurn(mine) {
    document.title = mine ? page.dataset.turnTitle + " — " + baseTitle : baseTitle;
    var icon = document.getElementById("favicon");
    if (icon) icon.href = mine ? page.dataset.faviconTurn : page.dataset.favicon;
    page.classList.toggle("awaiting-me", mine);
  }
  function setPressed(button, on) { if (button) button.setAttribute("aria-pressed", on ? "true" : "false"); }
  function initToggles() {
    var alerts = page.querySelector(".alerts");
    if (!alerts) return;
    alerts.hidden = false;
    var sound = alerts.querySelector("[data-sound]");
    setPressed(sound, stored("shabneshin.sound") === "1");
    sound.addEventListener("click", function () {
      var on = stored("shabneshin.sound") !== "1";
      store("shabneshin.sound", on ? "1" : "0");
      setPressed(sound, on);
      if (on) beep();  // a user gesture: the audio context may start now, and the player hears the tone
    });
    var notify = alerts.querySelector("[data-notify]");
    if (!("Notification" in window) || Notification.permission === "denied") return;
    notify.hidden = false;
    setPressed(notify, notificationsOn());
    notify.addEventListener("click", function () {
      if (notificationsOn()) { store("shabneshin.notify", "0"); setPressed(notify, false); return; }
      Notification.requestPermission().then(function (answer) {
        store("shabneshin.notify", answer === "granted" ? "1" : "0");
        setPressed(notify, notificationsOn());
        if (answer === "denied") notify.hidden = true;
      });
    });
  }

  // --- the polite announcer: the turn, a new phase, the newest log line ---------------------------
  var last = { phase: null, log: null };
  function textOf(selector) {
    var el = $(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : null;
  }
  function announce(turnStarted) {
    var parts = [];
    var phase = textOf("#board [data-testid=phase]") || textOf("#board .phase");
    var log = textOf("#log .log-entries > li:first-child");
    if (turnStarted) parts.push(page.dataset.turnText);
    if (phase && phase !== last.phase) parts.push(phase);
    if (log && log !== last.log) parts.push(log);
    last.phase = phase;
    last.log = log;
    if (parts.length) $("#announcer").textContent = parts.join(". ");
  }

  // --- the phone dock: sheets for the log and the chat, unread count ----------------------------
  var chatSeen = null;
  function chatItems() { return Array.prototype.slice.call(document.querySelectorAll("#chat .chat-messages > li")); }
  function signature(li) { return li.textContent.replace(/\s+/g, " ").trim(); }
  function chatVisible() { return !PHONE.matches || page.dataset.sheet === "chat"; }
  function updateUnread() {
    var items = chatItems();
    var list = $("#chat .chat-messages");
    if (list) list.scrollTop = list.scrollHeight;
    if (chatVisible() || chatSeen === null) chatSeen = items.length ? signature(items[items.length - 1]) : "";
    var at = -1;
    for (var i = items.length - 1; i >= 0; i--) { if (signature(items[i]) === chatSeen) { at = i; break; } }
    var unread = chatSeen === "" ? items.length : (at < 0 ? items.length : items.length - 1 - at);
    var badge = page.querySelector(".dock .unread");
    if (badge) { badge.textContent = unread ? unread.toLocaleString(document.documentElement.lang || undefined) : ""; badge.hidden = !unread; }
    var chatLink = page.querySelector(".dock [data-dock=chat]");
    if (chatLink) chatLink.classList.toggle("open-chat", !!$("#chat .chat-form"));
  }
  function openSheet(which) {
    page.dataset.sheet = which;
    page.querySelectorAll(".dock [data-dock]").forEach(function (link) {
      link.setAttribute("aria-current", link.dataset.dock === which ? "true" : "false");
    });
    updateUnread();
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest(".dock [data-dock]") : null;
    if (!link || !page || !PHONE.matches) return;
    event.preventDefault();
    var which = link.dataset.dock;
    if (which === "actions") {
      openSheet("");
      var target = actionButtons()[0] || $("#actions") || $("#board");
      if (target) { target.scrollIntoView({ block: "nearest" }); if (target.focus) target.focus({ preventScroll: true }); }
      return;
    }
    openSheet(page.dataset.sheet === which ? "" : which);
    if (page.dataset.sheet === "chat") { var input = $("#chat input[name=chat]"); if (input) input.focus({ preventScroll: true }); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && page && page.dataset.sheet) openSheet("");
  });

  // --- the choice within reach: inside the bottom sheet, the first action is in sight -----------
  function revealActions() {
    var box = $("#actions");
    var buttons = actionButtons();
    if (!box || !buttons.length || box.scrollHeight <= box.clientHeight) return;
    var frame = box.getBoundingClientRect();
    var inSight = buttons.some(function (b) {
      var r = b.getBoundingClientRect();
      return r.top >= frame.top && r.bottom <= frame.bottom;
    });
    if (!inSight) box.scrollTop += buttons[0].getBoundingClientRect().top - frame.top - 8;
  }

  function refresh() {
    var mine = myTurn();
    showTurn(mine);
    announce(mine && !wasMyTurn);
    if (mine && !wasMyTurn) alertTurn();
    wasMyTurn = mine;
    if (mine) revealActions();
    updateUnread();
  }

  function init() {
    page = document.querySelector(".table-page");
    if (!page) return;
    last.phase = textOf("#board [data-testid=phase]") || textOf("#board .phase");
    last.log = textOf("#log .log-entries > li:first-child");
    initToggles();
    openSheet("");
    wasMyTurn = myTurn();
    showTurn(wasMyTurn);
    if (wasMyTurn) revealActions();
    // A phone turned sideways (or a window resized) changes the sheet's height: keep a choice in sight.
    window.addEventListener("resize", function () { if (myTurn()) revealActions(); });
    page.addEventListener("htmx:wsBeforeMessage", function () { rememberOpen(); rememberFocus(); });
    page.addEventListener("htmx:wsAfterMessage", function () { restoreOpen(); restoreFocus(); refresh(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
