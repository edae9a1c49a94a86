// One polite status line at the bottom of the screen, with an optional Undo.
const toast = () => document.getElementById("toast");
let timer = null;

export function show(text, undo = null) {
  const box = toast();
  if (!box) return;
  box.querySelector(".toast-text").textContent = text;
  const button = box.querySelector(".undo");
  button.hidden = !undo;
  button.onclick = undo ? () => { hide(); undo(); } : null;
  box.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(hide, undo ? 6000 : 4000);
}

export function hide() {
  const box = toast();
  if (box) box.hidden = true;
}
