// html2rss rule builder: clicks on the inert page (same origin, no script of its own) become
// marks; the server merges them into a rule (POST /builder/rule) and the matches are shown.
"use strict";

const marks = { title: [], date: [], description: [], link: [] };
let xml = "";

function csrf() {
  return document.querySelector('meta[name="csrf-token"]').content;
}

function field() {
  return document.querySelector('input[name="field"]:checked').value;
}

function show(list, texts) {
  list.replaceChildren(...texts.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}

async function ask(builder, frame) {
  const status = document.getElementById("status");
  if (marks.title.length < 2) {
    status.textContent = "Now click the title of another item.";
    return;
  }
  const all = [];
  for (const [name, paths] of Object.entries(marks)) for (const path of paths) all.push(name + "=" + path);
  const body = JSON.stringify({
    url: builder.dataset.url,
    marks: all,
    name: document.getElementById("rule-name").value,
    url_pattern: document.getElementById("rule-url").value,
  });
  const response = await fetch("/builder/rule", {
    method: "POST", body, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
  });
  const answer = await response.json();
  const page = frame.contentDocument;
  for (const hit of page.querySelectorAll("[data-h2r-hit]")) hit.removeAttribute("data-h2r-hit");
  if (!response.ok) {
    status.textContent = answer.error;
    document.getElementById("save").disabled = true;
    return;
  }
  for (const path of answer.hits) {
    const element = page.querySelector('[data-h2r-path="' + CSS.escape(path) + '"]');
    if (element) element.setAttribute("data-h2r-hit", "");
  }
  status.textContent = answer.count + " items match.";
  status.dataset.count = answer.count;
  show(document.getElementById("warnings"), answer.warnings);
  show(document.getElementById("items"), answer.items.map((i) => [i.title, i.date, i.link].filter(Boolean).join(" · ")));
  xml = answer.xml;
  document.getElementById("rule-xml").value = xml;
  document.getElementById("save").disabled = answer.count === 0;
}

function mark(builder, frame, event) {
  const element = event.target.closest("[data-h2r-path]");
  event.preventDefault();
  event.stopPropagation();
  if (!element) return;
  const name = field();
  const path = element.getAttribute("data-h2r-path");
  if (name === "title") {
    // Two titles: a third click starts over from it.
    if (marks.title.length >= 2) marks.title = [];
    marks.title.push(path);
  } else {
    marks[name] = [path];
  }
  highlight(frame);
  ask(builder, frame);
}

async function save() {
  const saved = document.getElementById("saved");
  const response = await fetch("/rules", {
    method: "POST", body: xml, credentials: "same-origin",
    headers: { "Content-Type": "application/xml", "X-CSRF-Token": csrf() },
  });
  const text = await response.text();
  if (!response.ok) {
    saved.textContent = response.status + ": " + text;
    return;
  }
  const rule = JSON.parse(text);
  let note = "Saved as rule " + rule.id + "; the feeds of the pages it serves use it now.";
  // Editing: the new rule is stored first, so the old one goes only once it is replaced.
  const replaces = document.getElementById("builder").dataset.replaces;
  if (replaces) {
    const gone = await fetch("/rules/" + encodeURIComponent(replaces), {
      method: "DELETE", credentials: "same-origin", headers: { "X-CSRF-Token": csrf() },
    });
    note += gone.ok ? " Rule " + replaces + " is deleted." : " Rule " + replaces + " could not be deleted: " + gone.status;
    if (gone.ok) document.getElementById("builder").dataset.replaces = "";
  }
  saved.textContent = note;
  saved.dataset.id = rule.id;
}

// An edited rule's marks, from the server: shown and asked for at once.
function load(builder, frame) {
  if (!builder.dataset.marks) return;
  for (const text of JSON.parse(builder.dataset.marks)) {
    const at = text.indexOf("=");
    const name = text.slice(0, at);
    if (marks[name]) marks[name].push(text.slice(at + 1));
  }
  highlight(frame);
  ask(builder, frame);
}

function highlight(frame) {
  for (const old of frame.contentDocument.querySelectorAll("[data-h2r-mark]")) old.removeAttribute("data-h2r-mark");
  for (const paths of Object.values(marks)) {
    for (const p of paths) {
      const marked = frame.contentDocument.querySelector('[data-h2r-path="' + CSS.escape(p) + '"]');
      if (marked) marked.setAttribute("data-h2r-mark", "");
    }
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const builder = document.getElementById("builder");
  if (!builder) return;
  const frame = document.getElementById("page");
  let attached = null;
  const attach = () => {
    // Once per loaded page (not the frame's first, blank document).
    const page = frame.contentDocument;
    if (!page || page.location.href === "about:blank" || page === attached) return;
    attached = page;
    page.addEventListener("click", (event) => mark(builder, frame, event), true);
    builder.dataset.ready = "1";
    load(builder, frame);
  };
  if (frame.contentDocument && frame.contentDocument.readyState === "complete") attach();
  frame.addEventListener("load", attach);
  document.getElementById("save").addEventListener("click", save);
  // A new name or pattern goes into the rule: asked again once the typing pauses.
  let typing = null;
  for (const id of ["rule-name", "rule-url"]) {
    document.getElementById(id).addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => ask(builder, frame), 300);
    });
  }
});
