// Convenience over the string API: an object in, an object out.
Module['computeObject'] = function (request) {
  return JSON.parse(Module['compute'](JSON.stringify(request)));
};
