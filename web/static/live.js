// chouette serve: keep the page live. The server renders every fragment; this script only
// swaps in what its event stream sends, posts the scorekeeper's forms (the CLI's own words,
// in pieces the server puts together, as without the script), and enables the box's
// "double the checked members" only for a set of members the rules allow.
(function () {
  "use strict";
  var body = document.body;
  var source = body.getAttribute("data-events");
  // The page's own words for what this script says, in the page's language (base.html).
  var words = JSON.parse(body.getAttribute("data-words") || "{}");

  function byId(id) { return document.getElementById(id); }

  // ---------------------------------------------------------------- the event stream

  // What the scorekeeper is typing, has picked or has checked survives a fresh set of
  // controls: each field known by its form, its name, and its value (a box) or its place
  // among the fields of that name.
  function fields(root) {
    var found = {};
    var seen = {};
    root.querySelectorAll("form[data-form] input, form[data-form] select").forEach(function (input) {
      if (input.type === "hidden") { return; }
      var base = input.form.getAttribute("data-form") + "\u0000" + input.name;
      seen[base] = (seen[base] || 0) + 1;
      found[base + "\u0000" + (input.type === "checkbox" ? "=" + input.value : seen[base])] = input;
    });
    return found;
  }

  function kept(root) {
    var values = [];
    var found = fields(root);
    Object.keys(found).forEach(function (key) {
      var input = found[key];
      values.push([key, input.type === "checkbox" ? input.checked : input.value, input === document.activeElement]);
    });
    return values;
  }

  function restore(root, values) {
    var found = fields(root);
    values.forEach(function (item) {
      var input = found[item[0]];
      if (!input || input.disabled) { return; }
      if (input.type === "checkbox") { input.checked = item[1]; } else { input.value = item[1]; }
      if (item[2]) { input.focus(); }
    });
    root.querySelectorAll("form.box-double").forEach(checkBoxDouble);
  }

  function swap(id, event) {
    var target = byId(id);
    if (!target) { return; }
    var values = id === "controls" ? kept(target) : [];
    target.innerHTML = event.data;
    target.setAttribute("data-version", event.lastEventId);
    if (id === "controls") { restore(target, values); }
  }

  // The room's parts that changed (serve --room, --event): each replaces the part of that
  // name, if the page shows the version they were made from; a page that missed one (or
  // lacks a part) loads afresh rather than show a stale table.
  function parts(event) {
    var room = byId("room");
    var update = JSON.parse(event.data);
    if (!room || room.getAttribute("data-version") !== String(update.since)) {
      window.location.reload();
      return;
    }
    var found = {};
    room.querySelectorAll("[data-part]").forEach(function (part) {
      found[part.getAttribute("data-part")] = part;
    });
    for (var i = 0; i < update.parts.length; i += 1) {
      if (!found[update.parts[i][0]]) { window.location.reload(); return; }
    }
    update.parts.forEach(function (part) { found[part[0]].outerHTML = part[1]; });
    room.setAttribute("data-version", event.lastEventId);
  }

  // A stream the server refused (401: this device is signed out, or the server restarted
  // with another PIN; 503: too many streams open) is not retried by the browser: ask the
  // server who this device is now, go to the PIN or code form if it is no longer what the
  // page needs, and otherwise connect again in a while.
  var retries = 0;

  function refused() {
    var kind = body.className;
    var again = function () {
      retries += 1;
      window.setTimeout(connect, Math.min(30, 5 * retries) * 1000 + Math.random() * 2000);
    };
    if (!window.fetch) { again(); return; }
    fetch("/whoami", { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.json();
    }).then(function (who) {
      if (kind === "keeper" && !who.keeper) { window.location.assign("/keeper"); return; }
      var me = byId("me");
      if (kind === "me" && (!who.player || (me && me.getAttribute("data-player") !== who.player))) {
        window.location.assign("/me");
        return;
      }
      again();
    }, again);
  }

  function connect() {
    if (!source || !window.EventSource) { return; }
    var stream = new EventSource(source);
    var live = byId("live");
    stream.addEventListener("board", function (event) { swap("board", event); });
    stream.addEventListener("controls", function (event) { swap("controls", event); });
    stream.addEventListener("mine", function (event) { swap("mine", event); });
    stream.addEventListener("room", function (event) { swap("room", event); });
    stream.addEventListener("parts", parts);
    stream.addEventListener("problem", function (event) {
      var banner = byId("problem");
      banner.textContent = event.data ? words.unreadable + event.data : "";
      banner.hidden = !event.data;
    });
    stream.onopen = function () { live.hidden = true; retries = 0; };
    stream.onerror = function () {
      live.hidden = false;
      if (stream.readyState === EventSource.CLOSED) { refused(); }
    };
  }

  // ---------------------------------------------------------------- the scorekeeper's buttons

  function say(lines, ok) {
    var said = byId("said");
    if (!said) { return; }
    said.textContent = "";
    lines.forEach(function (text) {
      var line = document.createElement("p");
      line.textContent = text;
      said.appendChild(line);
    });
    said.className = "said " + (ok ? "ok" : "refused");
  }

  // A board typed for a cube decision is that decision's: once it is booked, the field is
  // emptied (found afresh: a new set of controls may have come meanwhile), so that it never
  // goes with the next decision unseen.
  function boardGiven(key) {
    var form = key && document.querySelector('form[data-form="' + key + '"]');
    if (!form) { return; }
    form.querySelectorAll('input[name="--position"]').forEach(function (input) {
      input.value = "";
    });
  }

  // The action's answer: JSON, or (a refusal before the action, a server error) plain text.
  function answered(response, key) {
    if ((response.headers.get("content-type") || "").indexOf("application/json") === 0) {
      return response.json().then(function (answer) {
        say(answer.said, answer.ok);
        if (answer.ok) { boardGiven(key); }
      });
    }
    return response.text().then(function (text) {
      var first = text.split("\n")[0];
      say([first.indexOf("Error: ") === 0 ? first :
        words.failed.replace("{status}", String(response.status))], false);
    });
  }

  // A form's fields as the browser would post it without this script: in the form's order,
  // the button pressed where it stands (its words are one of the command's pieces).
  function fieldsOf(form, submitter) {
    var data = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled) { return; }
      var type = (field.type || "").toLowerCase();
      if (type === "submit" || type === "button" || field.tagName === "BUTTON") {
        if (field === submitter) { data.append(field.name, field.value); }
        return;
      }
      if ((type === "checkbox" || type === "radio") && !field.checked) { return; }
      if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.selectedOptions, function (option) {
          data.append(field.name, option.value);
        });
        return;
      }
      data.append(field.name, field.value);
    });
    return data;
  }

  function post(form, submitter) {
    var data = fieldsOf(form, submitter);
    body.setAttribute("data-busy", "1");
    return fetch(form.action, {
      method: "POST",
      body: data,
      headers: { "Accept": "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      return answered(response, form.getAttribute("data-form"));
    }, function () {
      say([words.unreachable], false);
    }).then(null, function () {
      say([words.garbled], false);
    }).then(function () {
      body.removeAttribute("data-busy");  // whatever the answer, the buttons work again
    });
  }

  // The button pressed, for a browser whose submit event does not say (event.submitter).
  var pressed = null;
  document.addEventListener("click", function (event) {
    pressed = event.target.closest ? event.target.closest("button") : null;
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("act") || !window.fetch) { return; }
    event.preventDefault();
    if (body.hasAttribute("data-busy")) { return; }
    var button = event.submitter || (pressed && pressed.form === form ? pressed : null);
    post(form, button);
  });

  // ---------------------------------------------------------------- the box's double

  function checkBoxDouble(form) {
    var legal = JSON.parse(form.getAttribute("data-legal") || "[]").map(function (names) {
      return JSON.stringify(names);
    });
    var checked = [];
    form.querySelectorAll("input[type=checkbox]").forEach(function (input) {
      if (input.checked) { checked.push(input.value); }
    });
    var button = form.querySelector("button.double-checked");
    var allowed = checked.length > 0 && legal.indexOf(JSON.stringify(checked)) >= 0;
    button.disabled = !allowed;
  }

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.classList.contains("box-double")) { checkBoxDouble(form); }
  });

  // ---------------------------------------------------------------- a level's countdown

  // The level's clock of a tournament (serve --event) ticks here, from when the level ends
  // (the server's time; this device's clock counts, so a clock set wrong shows it wrong).
  function tick() {
    document.querySelectorAll(".countdown[data-ends]").forEach(function (clock) {
      var ends = Number(clock.getAttribute("data-ends"));
      var left = Math.max(0, Math.round((ends - Date.now()) / 1000));
      var seconds = left % 60;
      var text = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
      if (clock.textContent !== text) { clock.textContent = text; }
    });
  }

  document.querySelectorAll("form.box-double").forEach(checkBoxDouble);
  tick();
  window.setInterval(tick, 1000);
  connect();
})();
