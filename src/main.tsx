import './styles/main.scss';

/**
 * The bundle is evaluated in stages, each in a task of its own, so the browser can paint and
 * answer input between them: evaluated in one go, React, the router, Redux and the app held the
 * main thread for one task of 240 to 390 ms at Lighthouse's mobile slowdown, most of /login's
 * blocking time. The imports are eager: no chunk or request is added, only the moment
 * each part is evaluated moves (a library imported here whole would lose its tree shaking: only
 * react-dom, which is whole anyway, and our own modules are).
 */
const nextTask = () =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, 0);
  });

async function start(): Promise<void> {
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  await import(/* webpackMode: "eager" */ './app/store');
  await nextTask();
  const { boot } = await import(/* webpackMode: "eager" */ './app/boot');
  await nextTask();
  boot();
}

void start();
