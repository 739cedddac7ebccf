// html2rss home page: copy buttons for the feed addresses. The page works without it.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll("button.copy")) {
    const field = button.previousElementSibling;
    button.hidden = false;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
      setTimeout(() => { button.textContent = "Copy"; }, 1500);
    });
  }
});
