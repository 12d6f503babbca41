/* The replay viewer, better with JavaScript: step without reloading (the next ply's fragment is
   fetched and swapped in, the URL follows so every ply keeps its permanent link), arrow keys,
   Home/End, space to play automatically. Without this file every control is a plain link. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root || !window.fetch || !window.history.pushState) return;
  var frameBox = document.getElementById("replay-frame");
  var last = parseInt(root.dataset.last, 10);
  var template = root.dataset.urlTemplate; /* /games/<id>/replay/0/ */
  var timer = null;
  var cache = {};
  var DELAY = 1500;

  function urlFor(ply) { return template.replace(/\/0\/$/, "/" + ply + "/"); }
  function current() { return parseInt(frameBox.querySelector(".ar-frame").dataset.ply, 10); }

  function fetchFrame(ply) {
    if (!cache[ply]) {
      cache[ply] = fetch(urlFor(ply) + "?fragment=1", { headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .catch(function (e) { delete cache[ply]; throw e; });
    }
    return cache[ply];
  }

  function show(ply, push) {
    ply = Math.max(0, Math.min(last, ply));
    return fetchFrame(ply).then(function (html) {
      frameBox.innerHTML = html;
      markMove(ply);
      if (push) window.history.pushState({ ply: ply }, "", urlFor(ply));
      document.title = document.title.replace(/move \d+/, "move " + ply);
      if (timer) setPlayButton(true);
      if (ply < last) fetchFrame(ply + 1); /* the next step is instant */
    }).catch(function () { window.location.href = urlFor(ply); });
  }

  function markMove(ply) {
    var items = root.querySelectorAll(".ar-move");
    for (var i = 0; i < items.length; i++) {
      var on = parseInt(items[i].dataset.ply, 10) === ply;
      items[i].classList.toggle("ar-move--current", on);
      var link = items[i].querySelector("a");
      if (on) { link.setAttribute("aria-current", "step"); scrollList(items[i]); }
      else link.removeAttribute("aria-current");
    }
    var jump = document.getElementById("jump-ply");
    if (jump) jump.value = ply;
  }

  /* Scroll only the move list (never the page) so the current move is in view. */
  function scrollList(item) {
    var list = item.parentNode;
    var top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }

  function setPlayButton(playing) {
    var button = frameBox.querySelector(".ar-play");
    if (!button) return;
    button.textContent = playing ? "\u25A0 stop" : "\u25B6 play";
    button.dataset.autoplay = playing ? "pause" : "start";
  }

  function play() {
    if (timer || current() >= last) return;
    setPlayButton(true);
    timer = window.setInterval(function () {
      var next = current() + 1;
      if (next > last) return stop();
      show(next, true).then(function () { if (next >= last) stop(); });
    }, DELAY);
  }

  function stop() {
    if (timer) window.clearInterval(timer);
    timer = null;
    setPlayButton(false);
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest("a");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    if (link.dataset.autoplay) {
      event.preventDefault();
      if (timer) stop(); else play();
    } else if (link.dataset.plyLink !== undefined) {
      event.preventDefault();
      stop();
      show(parseInt(link.dataset.plyLink, 10), true);
    }
  });

  var jumpForm = root.querySelector(".ar-jump");
  if (jumpForm) jumpForm.addEventListener("submit", function (event) {
    var value = parseInt(document.getElementById("jump-ply").value, 10);
    if (isNaN(value)) return;
    event.preventDefault();
    stop();
    show(value, true);
  });

  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.altKey || event.ctrlKey || event.metaKey) return;
    var ply = current();
    var keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last };
    if (event.key in keys) {
      event.preventDefault();
      stop();
      show(keys[event.key], true);
    } else if (event.key === " ") {
      event.preventDefault();
      if (timer) stop(); else play();
    }
  });

  window.addEventListener("popstate", function (event) {
    var match = window.location.pathname.match(/\/replay\/(\d+)\/$/);
    if (match) { stop(); show(parseInt(match[1], 10), false); }
  });

  /* Without JavaScript autoplay reloads the page (?auto=1, a refresh inside <noscript>); here it plays in place. */
  if (/[?&]auto=1\b/.test(window.location.search)) {
    window.history.replaceState({ ply: current() }, "", urlFor(current()));
    play();
  } else if (current() < last) fetchFrame(current() + 1);
  markMove(current());
})();
