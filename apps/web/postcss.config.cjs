/* global module */
// Mantine's PostCSS preset (rem(), light-dark(), mixins) plus the spec's breakpoints as
// variables for media queries in CSS modules: xs ≤600, sm 601–959, md 960–1279, lg 1280–1919, xl ≥1920.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '37.5625em',
        'mantine-breakpoint-md': '60em',
        'mantine-breakpoint-lg': '80em',
        'mantine-breakpoint-xl': '120em',
      },
    },
  },
};
