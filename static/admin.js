// html2rss admin: times relative to now, and the rule forms. The page works without it.
"use strict";

function relative(date, now) {
  const seconds = Math.round((date - now) / 1000);
  const steps = [[60, "second"], [60, "minute"], [24, "hour"], [365, "day"], [Infinity, "year"]];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) {
      return new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }).format(Math.round(value), unit);
    }
    value /= size;
  }
  return "";
}

function showTimes() {
  const now = Date.now();
  for (const time of document.querySelectorAll("time[datetime]")) {
    const date = new Date(time.getAttribute("datetime"));
    if (isNaN(date)) continue;
    if (!time.title) time.title = date.toLocaleString();
    time.textContent = relative(date, now);
  }
}

async function send(method, url, body) {
  // The page's CSRF token: requests signed in by the cookie change nothing without it.
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const headers = { "Content-Type": "application/xml", "X-CSRF-Token": csrf };
  const response = await fetch(url, { method, body, credentials: "same-origin", headers });
  return { ok: response.ok, status: response.status, text: await response.text() };
}

function setUp() {
  showTimes();
  setInterval(showTimes, 30000);
  for (const button of document.querySelectorAll("button.delete-rule")) {
    button.addEventListener("click", async () => {
      if (!confirm("Delete rule " + button.dataset.id + " (" + button.dataset.name + ")?")) return;
      const answer = await send("DELETE", "/rules/" + encodeURIComponent(button.dataset.id));
      if (answer.ok) location.reload(); else alert(answer.status + ": " + answer.text);
    });
  }
  const form = document.getElementById("rule-form");
  const result = document.getElementById("rule-result");
  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const xml = form.elements.xml.value;
      const action = event.submitter ? event.submitter.value : "test";
      let answer;
      if (action === "upload") {
        answer = await send("POST", "/rules", xml);
        if (answer.ok) { location.reload(); return; }
      } else {
        const page = form.elements.url.value;
        if (!page) { result.textContent = "Give a page to try the rule on."; return; }
        answer = await send("POST", "/rules/test?url=" + encodeURIComponent(page), xml);
      }
      result.textContent = answer.status + "\n" + answer.text;
    });
  }
}

document.addEventListener("DOMContentLoaded", setUp);
