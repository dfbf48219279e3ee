import {
  OnboardingExtensionPage,
  OnboardingPage,
  OnboardingProxyPage,
} from '../../features/onboarding/index.ts';

/** Onboarding (the app family's client behaviour): step 1 chooses, step 2 sets the extension or a proxy up. */
export const OnboardingRoute = OnboardingPage;
export const OnboardingExtensionRoute = OnboardingExtensionPage;
export const OnboardingProxyRoute = OnboardingProxyPage;
