import { Page } from '../../components/layout/page.tsx';
import { useAuth } from '../../stores/auth-store.ts';
import { PreferencesForm } from '../preferences/preferences-form.tsx';
import { AccountForm } from './account-form.tsx';
import { PasswordForm } from './password-form.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SignOutEverywhere } from './sign-out-everywhere.tsx';

/**
 * /profile: the signed-in person's own details (name, display name; a radiologist's description and
 * signature as their reports print them), password, preferences (features/preferences), and sessions.
 */
export function ProfilePage() {
  const user = useAuth((state) => state.user);
  const roleDetails = useAuth((state) => state.roleDetails);
  if (!user) return null;
  return (
    <Page title="Profile" description="Your account, your password and your settings.">
      <div className="flex w-full max-w-3xl flex-col gap-5">
        <ProfileSection
          title="Your details"
          description={
            user.role === 'RADIOLOGIST'
              ? 'Your name as others see it, and the signature block of your reports.'
              : 'Your name as others see it.'
          }
        >
          <AccountForm key={user.id} user={user} roleDetails={roleDetails} />
        </ProfileSection>
        <ProfileSection title="Password" description="Your current password is needed to choose a new one.">
          <PasswordForm email={user.email} />
        </ProfileSection>
        <ProfileSection
          title="Preferences"
          description="Saved to your account as you change them: they follow you to any browser."
        >
          <PreferencesForm userId={user.id} />
        </ProfileSection>
        <ProfileSection title="Sessions">
          <SignOutEverywhere />
        </ProfileSection>
      </div>
    </Page>
  );
}
