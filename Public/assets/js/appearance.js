// The device's appearance (settings "Darstellung": light, dark, system or glass; localStorage
// `fc.appearance`) on <html data-appearance>, before the first paint: a classic script in <head>
// (the CSP allows no inline script), loaded by index.html and app.html. base.css does the rest.
// Another tab's choice applies here too. account.js changes it (setAppearance).
(function () {
  var KEY = 'fc.appearance';
  var COLORS = { light: '#059669', dark: '#0b1220', glass: '#000000' };
  function apply(value) {
    var root = document.documentElement;
    if (value === 'light' || value === 'dark' || value === 'glass') root.setAttribute('data-appearance', value);
    else root.removeAttribute('data-appearance');
    // The browser's bar follows a fixed choice; "system" keeps the two media-bound colours.
    var metas = document.querySelectorAll('meta[name=theme-color]');
    for (var i = 0; i < metas.length; i += 1) {
      var meta = metas[i];
      if (!meta.hasAttribute('data-content')) meta.setAttribute('data-content', meta.getAttribute('content'));
      meta.setAttribute('content', COLORS[value] || meta.getAttribute('data-content'));
    }
  }
  var saved = null;
  try { saved = localStorage.getItem(KEY); } catch (e) { saved = null; }
  apply(saved);
  window.addEventListener('storage', function (event) {
    if (event.key === KEY || event.key === null) apply(event.newValue);
  });
}());
