// Stylesheets are bundled by webpack (MiniCssExtractPlugin); importing them yields nothing.
declare module '*.scss';
declare module '*.css';
