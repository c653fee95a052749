import { LandingHero } from "../features/landing/components/landing-hero.tsx";
import { LandingNav } from "../features/landing/components/landing-nav.tsx";

export function WelcomePage() {
  return (
    <div className="landing">
      <LandingNav />
      <main>
        <LandingHero />
      </main>
    </div>
  );
}
