// Short sounds made with the Web Audio API (no audio files): a found word, a word taken
// by someone else, a refused word, your turn, the end of a round. Off until the player
// turns them on with the header's switch; the choice is kept in localStorage.
(function () {
  "use strict";
  const KEY = "wordfall.sound";
  const Wordfall = (window.Wordfall = window.Wordfall || {});
  let context = null;

  // Each sound is a few notes: [frequency in Hz, start in s, length in s, wave].
  const SOUNDS = {
    found: [[660, 0, 0.09, "sine"], [990, 0.08, 0.14, "sine"]],
    taken: [[330, 0, 0.12, "triangle"], [262, 0.1, 0.16, "triangle"]],
    invalid: [[180, 0, 0.16, "square"]],
    turn: [[523, 0, 0.12, "sine"], [784, 0.12, 0.2, "sine"]],
    end: [[784, 0, 0.12, "sine"], [659, 0.12, 0.12, "sine"], [523, 0.24, 0.28, "sine"]],
  };

  const enabled = () => {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  };

  function play(kind) {
    const notes = SOUNDS[kind];
    if (!notes || !enabled() || !window.AudioContext) return false;
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume();
    const now = context.currentTime;
    for (const [frequency, start, length, wave] of notes) {
      const osc = context.createOscillator(), gain = context.createGain();
      osc.type = wave; osc.frequency.value = frequency;
      // A quick rise and an exponential fall: no click at either end.
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start); osc.stop(now + start + length + 0.02);
    }
    Wordfall.lastSound = kind;  // what the page last played (read by the browser tests)
    return true;
  }
  Wordfall.sound = play;

  function draw(button) {
    const on = enabled();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "Sound on" : "Sound off";
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.querySelector("[data-sound-toggle]");
    if (!button) return;
    button.hidden = false;
    draw(button);
    button.addEventListener("click", () => {
      try { localStorage.setItem(KEY, enabled() ? "off" : "on"); } catch (e) { /* private mode: stays off */ }
      draw(button);
      play("found");  // a sample, and browsers only start audio after a click
    });
  });

  // A crossword "your turn" arrives as a site notification.
  document.addEventListener("wordfall:notification", (event) => {
    const msg = event.detail || {};
    if (msg.kind === "crossword.turn") play("turn");
  });
})();
