import { useEffect, useRef, useSyncExternalStore } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { useReducedMotion } from "../use-reduced-motion.ts";
import "../landing.css";

const poster = "/landing/hero-poster.jpg";

const noChanges = () => () => {};

/** The full-bleed hero: a silent looping clip behind the heading, still for visitors who ask for less motion. */
export function LandingHero() {
  const reducedMotion = useReducedMotion();
  // The page's HTML draws the hero with its poster and no clip (pwa/app/first-paint.tsx): the clip
  // comes with the code, once hydrated, when the visitor's motion setting is known. A clip in the
  // HTML would start playing before that, also for visitors who ask for less motion.
  const withClip = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!withClip || !video) return;
    // React sets `muted` only as a property, but mobile browsers decide on autoplay from the
    // attribute, so it is written out too.
    video.defaultMuted = true;
    video.muted = true;
    video.setAttribute("muted", "");
    if (reducedMotion) {
      video.pause();
      return;
    }
    // Autoplay can still be refused (data saver, low power mode); the poster then stays, which is fine.
    video.play().catch(() => {});
  }, [reducedMotion, withClip]);

  return (
    <section className="landing-hero" aria-labelledby="landing-heading" style={{ backgroundImage: `url(${poster})` }}>
      {withClip ? (
        <video
          ref={videoRef}
          className="landing-hero-video"
          width={1075}
          autoPlay
          muted
          loop
          playsInline
          poster={poster}
          preload={reducedMotion ? "none" : "auto"}
          hidden={reducedMotion}
          aria-hidden="true"
          tabIndex={-1}
          disablePictureInPicture
        >
          <source src="/landing/hero.webm" type="video/webm" />
          <source src="/landing/hero.mp4" type="video/mp4" />
        </video>
      ) : null}
      <div className="landing-hero-content">
        <h1 id="landing-heading">Date a step Deeper</h1>
        <p className="landing-hero-line">
          Speed dating for South Asian singles: one evening, a room full of real conversations, no endless swiping.
        </p>
        <Link to={paths.home} className="button primary landing-cta">
          See upcoming events
        </Link>
      </div>
    </section>
  );
}
