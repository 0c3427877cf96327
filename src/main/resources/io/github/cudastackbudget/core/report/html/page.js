// cuda-stack-budget: sorting, filtering and expanding of the kernel tables. No network access, no framework.
(function () {
  'use strict';
  document.documentElement.className += ' js';
  var data = JSON.parse(document.getElementById('csb-data').textContent);
  var W = 7, libs = data.libs, arches = data.arches;
  // names: sorted and front-coded (np = the length shared with the name before), the rests joined by U+0000 and
  // deflated (nz: zlib, base64, chunks of whole names), or plain (ns); inflated by the browser, then the tables start
  var names = [];
  function inflate(chunk) {
    var binary = atob(chunk), bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'))).text();
  }
  function rests() {
    if (!data.nz) { return Promise.resolve(data.ns); }
    if (typeof DecompressionStream === 'undefined') {
      return Promise.reject(new Error('no DecompressionStream'));
    }
    return Promise.all(data.nz.map(inflate)).then(function (parts) {
      return parts.length ? parts.join('\u0000').split('\u0000') : [];
    });
  }
  // f: per function name, library, image count, then per image arch, stack (-1 = UNKNOWN), local, shared, reg;
  // decoded into K, W integers per record (name, library, arch, stack, local, shared, reg), the records in order
  var F = data.f, COUNT = 0;
  for (var p = 0; p < F.length; p += 3 + 5 * F[p + 2]) { COUNT += F[p + 2]; }
  var K = new Float64Array(COUNT * W);
  for (var q = 0, r = 0; q < F.length; ) {
    var nameIndex = F[q], libIndex = F[q + 1], images = F[q + 2];
    q += 3;
    for (var m = 0; m < images; m++, q += 5, r++) {
      var b = r * W;
      K[b] = nameIndex; K[b + 1] = libIndex; K[b + 2] = F[q]; K[b + 3] = F[q + 1];
      K[b + 4] = F[q + 2]; K[b + 5] = F[q + 3]; K[b + 6] = F[q + 4];
    }
  }
  var STEP = 250;
  var lowerNames = null, lowerLibs = null, nameRank = null, libRank = null;

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function grouped(n) { return n.toLocaleString('en-US'); }
  function ranks(values) {
    var order = values.map(function (v, i) { return i; });
    order.sort(function (a, b) { return values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : a - b; });
    var rank = new Int32Array(values.length);
    order.forEach(function (v, i) { rank[v] = i; });
    return rank;
  }
  function stackOf(r) { var s = K[r * W + 3]; return s < 0 ? Infinity : s; }
  var KEYS = {
    name: { numeric: false, value: function (r) { nameRank = nameRank || ranks(names); return nameRank[K[r * W]]; } },
    library: { numeric: false, value: function (r) { libRank = libRank || ranks(libs); return libRank[K[r * W + 1]]; } },
    arch: { numeric: false, value: function (r) { return K[r * W + 2]; } },
    stack: { numeric: true, value: stackOf },
    local: { numeric: true, value: function (r) { return K[r * W + 4]; } },
    shared: { numeric: true, value: function (r) { return K[r * W + 5]; } },
    reg: { numeric: true, value: function (r) { return K[r * W + 6]; } }
  };
  function matches(r, terms) {
    if (!lowerNames) {
      lowerNames = names.map(function (n) { return n.toLowerCase(); });
      lowerLibs = libs.map(function (n) { return n.toLowerCase(); });
    }
    var name = lowerNames[K[r * W]], lib = lowerLibs[K[r * W + 1]], arch = arches[K[r * W + 2]];
    for (var t = 0; t < terms.length; t++) {
      var term = terms[t];
      if (name.indexOf(term) < 0 && lib.indexOf(term) < 0 && arch.indexOf(term) < 0) { return false; }
    }
    return true;
  }
  function row(r, position) {
    var b = r * W, stack = K[b + 3];
    return '<tr><td class="num">' + position + '</td><td class="kname">' + esc(names[K[b]]) +
      '</td><td class="lib">' + esc(libs[K[b + 1]]) + '</td><td>' + esc(arches[K[b + 2]]) +
      '</td><td class="num' + (stack < 0 ? ' unknown">UNKNOWN' : '">' + grouped(stack)) +
      '</td><td class="num">' + grouped(K[b + 4]) + '</td><td class="num">' + grouped(K[b + 5]) +
      '</td><td class="num">' + K[b + 6] + '</td></tr>';
  }

  function KernelTable(root) {
    var source = root.getAttribute('data-source');
    var base;
    if (source === 'all') {
      base = new Array(COUNT);
      for (var i = 0; i < COUNT; i++) { base[i] = i; }
      base.sort(function (a, b) { var d = stackOf(b) - stackOf(a); return d === 0 || d !== d ? a - b : d; });
    } else {
      base = data.devices[Number(source.substring(1))];
    }
    this.root = root;
    this.base = base;
    this.initial = Number(root.getAttribute('data-rows'));
    this.limit = this.initial;
    this.key = 'stack';
    this.dir = -1;
    this.terms = [];
    this.filterText = '';
    this.tbody = root.querySelector('tbody');
    this.count = root.querySelector('.count');
    this.more = root.querySelector('button.more');
    this.reset = root.querySelector('button.reset');
    this.input = root.querySelector('input.filter');
    this.headers = root.querySelectorAll('th[data-key]');
    this.view = base;
    var table = this, timer = null;
    this.input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { table.filter(table.input.value); }, 120);
    });
    this.more.addEventListener('click', function () { table.limit += STEP; table.render(); });
    this.reset.addEventListener('click', function () {
      table.input.value = '';
      table.key = 'stack';
      table.dir = -1;
      table.limit = table.initial;
      table.filter('');
    });
    Array.prototype.forEach.call(this.headers, function (th) {
      var button = th.querySelector('button');
      if (button) {
        button.addEventListener('click', function () { table.sortBy(th.getAttribute('data-key')); });
      }
    });
  }
  KernelTable.prototype.filter = function (text) {
    this.filterText = text.trim();
    this.terms = this.filterText.toLowerCase().split(/\s+/).filter(Boolean);
    this.limit = this.initial;
    this.update();
  };
  KernelTable.prototype.sortBy = function (key) {
    if (this.key === key) {
      this.dir = -this.dir;
    } else {
      this.key = key;
      this.dir = KEYS[key].numeric ? -1 : 1;
    }
    this.update();
  };
  KernelTable.prototype.update = function () {
    var terms = this.terms, view = this.base;
    if (terms.length) { view = view.filter(function (r) { return matches(r, terms); }); }
    var key = KEYS[this.key], dir = this.dir;
    if (!(this.key === 'stack' && dir === -1)) {
      var position = new Map();
      view.forEach(function (r, i) { position.set(r, i); });
      view = view.slice().sort(function (a, b) {
        var x = key.value(a), y = key.value(b);
        if (x !== y) { return x < y ? -dir : dir; }
        return position.get(a) - position.get(b);
      });
    }
    this.view = view;
    var table = this;
    Array.prototype.forEach.call(this.headers, function (th) {
      if (th.getAttribute('data-key') === table.key) {
        th.setAttribute('aria-sort', table.dir < 0 ? 'descending' : 'ascending');
      } else {
        th.removeAttribute('aria-sort');
      }
    });
    this.render();
  };
  KernelTable.prototype.render = function () {
    var shown = Math.min(this.limit, this.view.length), html = [];
    for (var i = 0; i < shown; i++) { html.push(row(this.view[i], i + 1)); }
    this.tbody.innerHTML = html.join('');
    this.count.textContent = 'Showing ' + grouped(shown) + ' of ' + grouped(this.view.length) + ' ' +
      this.count.getAttribute('data-what') + (this.terms.length ? ' matching "' + this.filterText + '"' : '');
    var left = this.view.length - shown;
    this.more.hidden = left <= 0;
    this.more.textContent = 'Show ' + grouped(Math.min(STEP, left)) + ' more';
    this.reset.hidden = !(this.terms.length || this.key !== 'stack' || this.dir !== -1 || this.limit > this.initial);
  };

  // small server-rendered tables (devices, libraries): sort the rows in place
  function sortable(table) {
    var headers = table.querySelectorAll('thead th');
    Array.prototype.forEach.call(headers, function (th, column) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = th.textContent;
      th.textContent = '';
      th.appendChild(button);
      button.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var numeric = th.classList.contains('num');
        rows.sort(function (a, b) {
          var x = cellValue(a.cells[column], numeric), y = cellValue(b.cells[column], numeric);
          return x < y ? -dir : x > y ? dir : 0;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      });
    });
  }
  function cellValue(cell, numeric) {
    var sort = cell.getAttribute('data-sort');
    if (numeric) {
      var n = sort === null ? parseFloat(cell.textContent.replace(/,/g, '')) : parseFloat(sort);
      return isNaN(n) ? -Infinity : n;
    }
    return (sort === null ? cell.textContent : sort).toLowerCase();
  }

  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), sortable);
  rests().then(function (ns) {
    names = new Array(ns.length);
    for (var n = 0, previous = ''; n < names.length; n++) {
      previous = names[n] = previous.substring(0, data.np[n]) + ns[n];
    }
    Array.prototype.forEach.call(document.querySelectorAll('.ktable'), function (root) { root.table = new KernelTable(root); });
    document.documentElement.setAttribute('data-csb-ready', 'true');
    if (window.performance && performance.mark) { performance.mark('csb-ready'); }
  }, function () {
    // the server-rendered rows stay, without sorting or filtering: a browser without DecompressionStream (before
    // 2023), or names that do not inflate (a damaged file)
    var why = typeof DecompressionStream === 'undefined'
      ? 'this browser cannot unpack the page\'s kernel names: sorting and filtering need a browser from 2023 or later'
      : 'the page\'s kernel names do not unpack: the file is damaged; write the report again';
    Array.prototype.forEach.call(document.querySelectorAll('.ktable .count'), function (count) {
      count.textContent += ' (' + why + '; cuda-stack-budget.json lists every record)';
    });
    document.documentElement.setAttribute('data-csb-ready', 'false');
  });
}());
