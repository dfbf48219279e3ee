export {
  OnboardingExtensionPage,
  OnboardingPage,
  OnboardingProxyPage,
  browserKind,
} from './onboarding-pages.tsx';
