/* "Copy for chat" on entry pages (templates/entry.html.j2; the texts come from pitfalls/pages/share.py).
 *
 * Each button holds what it copies: data-pf-text (text/plain) and data-pf-html (text/html). The buttons are
 * hidden in the page and shown here, so a reader without JavaScript sees none that would do nothing.
 * Copying asks nothing of any server. It tries, in order:
 *   1. the asynchronous Clipboard API with both types (secure contexts: https, localhost);
 *   2. a `copy` event that sets both types, which browsers also allow on plain-http intranet hosts;
 *   3. the text, shown selected under the button, to copy by hand.
 * The status line (role="status") says which happened, for sighted and screen-reader users alike.
 */
(function () {
  "use strict";
  var status = document.getElementById("pf-share-status");
  var buttons = document.querySelectorAll("button[data-pf-share]");
  if (!status || !buttons.length) return;
  var timer = null;

  function say(message) {
    status.textContent = message;
    status.classList.add("pf-share-status--shown");
    clearTimeout(timer);
    timer = setTimeout(function () {
      status.classList.remove("pf-share-status--shown");
      status.textContent = "";
    }, 4000);
  }

  function copyWithEvent(text, html) {
    var copied = false;
    function fill(event) {
      event.clipboardData.setData("text/plain", text);
      event.clipboardData.setData("text/html", html);
      event.preventDefault();
      copied = true;
    }
    document.addEventListener("copy", fill);
    try {
      document.execCommand("copy");
    } catch (error) {
      copied = false;
    } finally {
      document.removeEventListener("copy", fill);
    }
    return copied;
  }

  function copyWithApi(text, html) {
    if (!window.isSecureContext || !navigator.clipboard || typeof ClipboardItem === "undefined") {
      return Promise.reject(new Error("no asynchronous clipboard"));
    }
    return navigator.clipboard.write([new ClipboardItem({
      "text/plain": new Blob([text], { type: "text/plain" }),
      "text/html": new Blob([html], { type: "text/html" }),
    })]);
  }

  function showByHand(button, text) {
    var box = button.parentNode.querySelector("textarea.pf-share-manual");
    if (!box) {
      box = document.createElement("textarea");
      box.className = "pf-share-manual";
      box.readOnly = true;
      box.setAttribute("aria-label", button.getAttribute("aria-label"));
      button.insertAdjacentElement("afterend", box);
    }
    box.value = text;
    box.rows = text.split("\n").length;
    box.focus();
    box.select();
  }

  buttons.forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = button.getAttribute("data-pf-text");
      var html = button.getAttribute("data-pf-html");
      copyWithApi(text, html).then(function () {
        say(status.getAttribute("data-copied"));
      }, function () {
        if (copyWithEvent(text, html)) {
          say(status.getAttribute("data-copied"));
        } else {
          say(status.getAttribute("data-failed"));
          showByHand(button, text);
        }
      });
    });
  });
})();
