// CloudFront Function (runtime cloudfront-js-2.0), event "viewer request", on the cache behaviours whose origin
// is the pages' bucket (docs/static-hosting.md "Pages in an object store"). It does at the edge what the Node
// server does for a request (api/app.ts, api/http/bucket-static.ts):
//   1. a minisite host {slug}.{PUBLIC_HOST} reads the bucket's minisite/{slug}/ folder (not for /_astro/ and /images/);
//      the marketplace host never reaches minisite/ (it answers the 404 page);
//   2. a path without a file name is {path}/index.html;
//   3. a text file is read as {file}.br or {file}.gz when the browser accepts that encoding: the publisher stores
//      both, with their Content-Encoding, for every text file whatever its size, so the choice needs no look-up.
// The rewritten URI is the cache key, so each encoding is cached apart and the origin needs no Accept-Encoding.
// Replace example.com with PUBLIC_HOST (without a port) before publishing the function.
var PUBLIC_HOST = 'example.com';
var TEXT = /\.(html|css|js|mjs|json|xml|svg|txt|ics|webmanifest)$/;
var SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The q-value the Accept-Encoding header gives a coding (0 when it names neither it nor *). */
function quality(header, coding) {
  var star = 0;
  var parts = header.toLowerCase().split(',');
  for (var i = 0; i < parts.length; i++) {
    var bits = parts[i].split(';');
    var name = bits[0].trim();
    var q = 1;
    for (var j = 1; j < bits.length; j++) {
      var param = bits[j].trim();
      if (param.indexOf('q=') === 0) q = parseFloat(param.slice(2));
    }
    if (isNaN(q)) q = 0;
    if (name === coding) return q;
    if (name === '*') star = q;
  }
  return star;
}

function handler(event) {
  var request = event.request;
  var host = (request.headers.host ? request.headers.host.value : '').toLowerCase().split(':')[0];
  var uri = request.uri;
  var slug = host.length > PUBLIC_HOST.length + 1 && host.slice(-(PUBLIC_HOST.length + 1)) === '.' + PUBLIC_HOST
    ? host.slice(0, -(PUBLIC_HOST.length + 1))
    : null;
  if (slug !== null && SLUG.test(slug)) {
    if (!/^\/(_astro|images)\//.test(uri)) uri = '/minisite/' + slug + uri;
  } else if (/^\/minisite(\/|$)/i.test(uri) || /%2f/i.test(uri)) {
    // No such file: the bucket answers 404, and the distribution's error page is the site's 404 page.
    request.uri = '/404-not-here';
    return request;
  }
  if (uri.charAt(uri.length - 1) === '/') uri += 'index.html';
  else if (uri.slice(uri.lastIndexOf('/') + 1).indexOf('.') < 0) uri += '/index.html';
  if (TEXT.test(uri)) {
    var accepted = request.headers['accept-encoding'] ? request.headers['accept-encoding'].value : '';
    var br = quality(accepted, 'br');
    var gzip = quality(accepted, 'gzip');
    if (br > 0 && br >= gzip) uri += '.br';
    else if (gzip > 0) uri += '.gz';
  }
  request.uri = uri;
  return request;
}
