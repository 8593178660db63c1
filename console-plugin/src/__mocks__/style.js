// PatternFly's style modules require their CSS, which the console provides.
module.exports = {};
