// The device's appearance (settings "Darstellung", localStorage fc.appearance) on <html> before
// the first paint (a classic <head> script: the CSP allows no inline one); Glas adds glass.css.
(function () {
  var bars = { light: '#059669', dark: '#0b1220', glass: '#000000' };
  function apply(value) {
    var root = document.documentElement;
    if (value === 'glass' && !document.querySelector('link[href="/assets/css/glass.css"]')) {
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = '/assets/css/glass.css';
      link.setAttribute('blocking', 'render');
      document.head.appendChild(link);
    }
    if (bars[value]) root.setAttribute('data-appearance', value);
    else root.removeAttribute('data-appearance');
    document.querySelectorAll('meta[name=theme-color]').forEach(function (meta) {
      meta.dataset.content = meta.dataset.content || meta.content;
      meta.content = bars[value] || meta.dataset.content;
    });
  }
  try { apply(localStorage.getItem('fc.appearance')); } catch (e) { /* no storage: System */ }
  window.fcAppearance = apply;
  addEventListener('storage', function (event) {
    if (event.key === 'fc.appearance' || event.key === null) apply(event.newValue);
  });
}());
